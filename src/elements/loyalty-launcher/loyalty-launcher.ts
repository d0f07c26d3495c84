import type { ReactiveController } from 'lit';
import { LocaleController, registerBuiltInMessages } from '../../shared/i18n.ts';
import { VERSION } from '../../shared/version.ts';
import { warnOnce } from '../../shared/warn.ts';
import { claimedCampaigns, followClaims, forgetClaimed, onClaimedChange } from './claimed-coupons.ts';
import type { LauncherCloseReason, LauncherOpenTrigger } from './events.ts';
import { launcherMessages } from './loyalty-launcher.messages.ts';
import { launcherCss } from './loyalty-launcher.styles.ts';
import { makeRoom, releaseRoom } from './page-room.ts';
import type { LauncherPanel } from './launcher-panel.ts';

const SVG = 'http://www.w3.org/2000/svg';
/** The built-in icons, by the `icon` attribute's value (24×24 paths). */
const ICONS: Record<string, string> = {
  gift: 'M20 7h-2.2A3 3 0 0 0 12 3.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h1v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7h1a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1Zm-5-1.5a1.5 1.5 0 1 1 0 3h-2v-1A2 2 0 0 1 15 5.5ZM9 5.5a2 2 0 0 1 2 2v1H9a1.5 1.5 0 1 1 0-3ZM5 9h6v1H5V9Zm2 3h4v7H7v-7Zm6 7v-7h4v7h-4Zm6-9h-6V9h6v1Z',
  star: 'm12 3 2.7 5.6 6.1.8-4.5 4.3 1.1 6.1L12 16.9l-5.4 2.9 1.1-6.1-4.5-4.3 6.1-.8L12 3Z',
  wallet:
    'M4 6.5A2.5 2.5 0 0 1 6.5 4H18v3h1a1 1 0 0 1 1 1v10.5a1.5 1.5 0 0 1-1.5 1.5h-12A2.5 2.5 0 0 1 4 17.5v-11Zm2.5-.5a.5.5 0 0 0 0 1H16V6H6.5ZM15 12.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Z',
};
const CORNERS = [
  'bottom-end',
  'bottom-start',
  'top-end',
  'top-start',
  'bottom-right',
  'bottom-left',
  'top-right',
  'top-left',
];
const DEFAULT_FRAGMENT = 'loyalty';

/** The launcher's stylesheet, made once and adopted by every launcher (no `<style>`: strict CSPs allow it). */
let sheet: CSSStyleSheet | undefined;

function adoptStyles(root: ShadowRoot): void {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(launcherCss);
  }
  root.adoptedStyleSheets = [sheet];
}

/**
 * The whole loyalty program behind one floating button, for a site's template: placed once, it gives
 * every page the sign-in, the campaigns with their coupons, the coupons the shopper got in this visit
 * and the partner businesses, in a panel that reuses the other elements. It floats (`position: fixed`)
 * and never moves the page; the page's scroll padding on its side keeps what the browser scrolls into
 * view (a Tab, a link to an anchor) clear of it. Only the button loads with the page (no Lit); the
 * panel's code and data load when the shopper shows intent: pointing at the button, focusing it or
 * pressing it.
 *
 * The panel is a dialog (WAI-ARIA Authoring Practices): focus moves into it and back to the button
 * when it closes; Escape closes it. At most 480px wide it opens as a modal sheet covering the screen,
 * the page behind inert; wider, it stands beside the button and the page stays usable.
 *
 * A link to `#loyalty` (the `fragment` attribute names another) opens it, on load and whenever the
 * address's fragment becomes it.
 *
 * @summary A floating button opening the whole loyalty program in a panel: sign-in, offers, coupons, partners.
 * @tag loyalty-launcher
 *
 * @event {CustomEvent<LauncherOpenDetail>} loyalty-launcher-open - The panel opened. Detail `{ trigger, modal }`: `trigger` is `button`, `link` (the fragment) or `script` (`open()`); `modal` is true for the full-screen sheet.
 * @event {CustomEvent<LauncherCloseDetail>} loyalty-launcher-close - The panel closed. Detail `{ reason }`: `button` (the launcher pressed again), `close-button`, `escape` or `script` (`close()`).
 * @event {CustomEvent<LauncherSectionDetail>} loyalty-launcher-section - The shopper moved into another part of the panel (focus or pointer). Detail `{ section, previous }`, each `account`, `campaigns`, `coupons` or `partners` (`previous` null for the first).
 *
 * @csspart button - The floating button.
 * @csspart icon - The icon's wrapper.
 * @csspart label - The button's label.
 * @csspart panel - The panel (a `<dialog>`); with the class `sheet` when it covers the screen.
 * @csspart header - The panel's title row.
 * @csspart title - The panel's title.
 * @csspart close-button - The panel's close button.
 * @csspart section - Each part of the panel (account, offers, coupons, partners; its `data-section` says which).
 * @csspart section-title - Each part's heading.
 * @csspart coupon-list - The list of the coupons received in this visit.
 *
 * @cssproperty --loyalty-color-primary - The button's background.
 * @cssproperty --loyalty-color-on-primary - The button's text and icon.
 * @cssproperty --loyalty-color-surface - The panel's background.
 * @cssproperty --loyalty-color-text - Text colour.
 * @cssproperty --loyalty-color-muted - Secondary text in the panel.
 * @cssproperty --loyalty-color-border - The panel's border.
 * @cssproperty --loyalty-radius - The panel's corner radius.
 * @cssproperty --loyalty-spacing - Base spacing, and the default offset from the corner.
 * @cssproperty --loyalty-focus-ring - Replaces the halo: the box-shadow around the focus outline.
 * @cssproperty --loyalty-focus-color - The keyboard focus outline (default a deep blue, white in the dark scheme).
 * @cssproperty --loyalty-focus-halo - The ring around the focus outline (default white, near-black in the dark scheme); keep it at least 9:1 from --loyalty-focus-color.
 * @cssproperty --loyalty-launcher-radius - The button's corner radius (default 1.5rem, a pill).
 * @cssproperty --loyalty-launcher-z-index - The button's and panel's stacking level (default 2147483000).
 */
export class LoyaltyLauncher extends HTMLElement {
  /** @internal The version of this copy of the widgets. */
  static readonly version = VERSION;

  /** @internal The attributes it reads (a CMS mount passes on only these). */
  static readonly observedAttributes = [
    'corner',
    'offset',
    'label',
    'icon',
    'icon-only',
    'fragment',
    'endpoint',
    'business-account-id',
    'currency',
  ];

  /**
   * The corner it floats in: `bottom-end` (the default: bottom right, bottom left in a right-to-left
   * page), `bottom-start`, `top-end`, `top-start`, or the physical `bottom-right`, `bottom-left`,
   * `top-right`, `top-left`.
   */
  declare corner: string;
  /**
   * The distance from the corner: one CSS length for both edges, or two (`block inline`), e.g.
   * `1rem` or `5rem 1rem` to stand above a page's own bottom bar. Default the base spacing.
   */
  declare offset: string;
  /** The button's label (default a localized "Rewards"); it names the panel too. */
  declare label: string;
  /** The button's icon: `gift` (default), `star`, `wallet` or `none`. */
  declare icon: string;
  /** The button shows its icon only; the label is still its accessible name. */
  declare iconOnly: boolean;
  /** The address fragment that opens the panel, without `#` (default `loyalty`). */
  declare fragment: string;
  /** The Marketing proxy of the panel's elements (defaults to the page's, as theirs do). */
  declare endpoint: string;
  /** Shows only this business account's campaigns in the panel. */
  declare businessAccountId: string;
  /** ISO 4217 code used to format the panel's prices, e.g. `EUR`. */
  declare currency: string;

  /** @internal */
  readonly #locale: LocaleController;
  readonly #controllers: ReactiveController[] = [];
  readonly #button: HTMLButtonElement;
  readonly #icon: HTMLSpanElement;
  readonly #text: HTMLSpanElement;
  #panel?: Promise<LauncherPanel | undefined>;
  #rendering?: Promise<void>;
  #stopFollowingAddress?: () => void;
  /** The button's size changes with its label, font and icon: the page's scroll padding follows it. */
  readonly #sized = new ResizeObserver(() => makeRoom(this, this.#button));

  static {
    registerBuiltInMessages(launcherMessages);
    // Each attribute is a property of the same name in camelCase, `icon-only` a boolean one.
    for (const attribute of this.observedAttributes) {
      const property = attribute.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
      Object.defineProperty(
        this.prototype,
        property,
        attribute === 'icon-only'
          ? {
              get(this: LoyaltyLauncher) {
                return this.hasAttribute(attribute);
              },
              set(this: LoyaltyLauncher, value: boolean) {
                this.toggleAttribute(attribute, value);
              },
            }
          : {
              get(this: LoyaltyLauncher) {
                return this.getAttribute(attribute) ?? '';
              },
              set(this: LoyaltyLauncher, value: string) {
                this.setAttribute(attribute, value);
              },
            },
      );
    }
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    adoptStyles(root);
    this.#button = Object.assign(document.createElement('button'), { type: 'button' });
    this.#button.setAttribute('part', 'button');
    this.#button.setAttribute('aria-haspopup', 'dialog');
    this.#button.setAttribute('aria-expanded', 'false');
    this.#icon = document.createElement('span');
    this.#icon.setAttribute('part', 'icon');
    this.#text = document.createElement('span');
    this.#text.setAttribute('part', 'label');
    this.#button.append(this.#icon, this.#text);
    root.append(this.#button);
    // Intent: the panel's code and first data start loading before the press.
    for (const intent of ['pointerenter', 'focus', 'touchstart'])
      this.#button.addEventListener(intent, () => void this.#loadPanel(), { passive: true });
    this.#button.addEventListener('click', () => void this.toggle());
    this.#locale = new LocaleController(this);
  }

  /** @internal The locale controller's host: controllers follow the element's connection. */
  addController(controller: ReactiveController): void {
    this.#controllers.push(controller);
    if (this.isConnected) controller.hostConnected?.();
  }

  /** @internal */
  removeController(controller: ReactiveController): void {
    this.#controllers.splice(this.#controllers.indexOf(controller), 1);
  }

  /** @internal Renders again once the strings of the language in force are in. */
  requestUpdate(): void {
    this.#rendering ??= Promise.resolve(this.#locale.ready()).then(() => {
      this.#rendering = undefined;
      this.#render();
    });
  }

  /** @internal Settles once the button shows the current label, language and icon. */
  get updateComplete(): Promise<boolean> {
    return (this.#rendering ?? Promise.resolve()).then(() => true);
  }

  connectedCallback(): void {
    for (const controller of this.#controllers) controller.hostConnected?.();
    followClaims();
    this.requestUpdate();
    const follow = (): void => {
      if (this.#linked()) void this.open('link');
    };
    window.addEventListener('hashchange', follow);
    this.#stopFollowingAddress = () => window.removeEventListener('hashchange', follow);
    this.#sized.observe(this.#button);
    follow();
  }

  disconnectedCallback(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
    this.#stopFollowingAddress?.();
    this.#sized.disconnect();
    releaseRoom(this);
    void this.#panel?.then((panel) => panel?.close('script'));
  }

  attributeChangedCallback(name: string): void {
    if (name === 'offset') this.#applyOffset();
    else if (name === 'corner' && this.corner && !CORNERS.includes(this.corner))
      warnOnce(this, `corner="${this.corner}" is not one of ${CORNERS.join(', ')}; it floats at bottom-end.`);
    else if (['endpoint', 'business-account-id', 'currency'].includes(name))
      void this.#panel?.then((panel) => panel?.update());
    // A move to another corner or offset keeps the button's size: the page's scroll padding follows here.
    if ((name === 'offset' || name === 'corner') && this.isConnected) makeRoom(this, this.#button);
    this.requestUpdate();
  }

  /** Whether the panel is open. */
  get opened(): boolean {
    return this.#button.getAttribute('aria-expanded') === 'true';
  }

  /** The button's label, as shown and as the panel's name. */
  get labelText(): string {
    return this.label.trim() || this.#locale.t('launcher.label');
  }

  /** Opens the panel (loading it first if needed) and moves focus into it. */
  async open(trigger: LauncherOpenTrigger = 'script'): Promise<void> {
    const panel = await this.#loadPanel();
    if (panel && !this.opened) await panel.open(trigger);
  }

  /** Closes the panel and returns focus to the button. */
  async close(reason: LauncherCloseReason = 'script'): Promise<void> {
    const panel = await this.#panel;
    panel?.close(reason);
  }

  /** Opens the panel when it is closed and closes it when it is open (as pressing the button does). */
  async toggle(): Promise<void> {
    if (this.opened) return this.close('button');
    return this.open('button');
  }

  /** @internal The button the panel returns focus to. */
  get button(): HTMLButtonElement {
    return this.#button;
  }

  /**
   * @internal The coupons received in this visit, for the panel, followed since the page's start. Read
   * here, their module is the button's alone and comes inside its file (imported by both, it was one
   * more file at load).
   */
  readonly coupons = { list: claimedCampaigns, onChange: onClaimedChange, forget: forgetClaimed };

  /** @internal Called by the panel as it opens and closes (the panel sends the events). */
  expanded(open: boolean): void {
    this.#button.setAttribute('aria-expanded', String(open));
  }

  /** @internal Whether the address's fragment is the launcher's. */
  #linked(): boolean {
    return location.hash.slice(1) === (this.fragment.trim() || DEFAULT_FRAGMENT);
  }

  /** @internal The fragment that opened the panel leaves the address, so the same link opens it again. */
  forgetLink(): void {
    if (!this.#linked()) return;
    history.replaceState(history.state, '', location.pathname + location.search);
  }

  #loadPanel(): Promise<LauncherPanel | undefined> {
    this.#panel ??= import('./launcher-panel.ts').then(
      ({ LauncherPanel }) => new LauncherPanel(this),
      (error: unknown) => {
        this.#panel = undefined;
        console.error('loyalty-widgets: the <loyalty-launcher> panel could not be loaded.', error);
        return undefined;
      },
    );
    return this.#panel;
  }

  #applyOffset(): void {
    const values = this.offset.trim().split(/\s+/).filter(Boolean);
    const valid = values.length <= 2 && values.every((value) => CSS.supports('inset-block-end', value));
    if (!valid) warnOnce(this, `offset="${this.offset}" is not one or two CSS lengths; using the base spacing.`);
    const [block, inline] = valid ? values : [];
    for (const [property, value] of [
      ['--_offset', block],
      ['--_offset-x', inline],
    ] as const)
      if (value) this.style.setProperty(property, value);
      else this.style.removeProperty(property);
  }

  #render(): void {
    const label = this.labelText;
    if (this.#text.textContent !== label) this.#text.textContent = label;
    const name = ICONS[this.icon.trim()] ? this.icon.trim() : this.icon.trim() === 'none' ? '' : 'gift';
    if (this.#icon.dataset.icon === name) return;
    this.#icon.dataset.icon = name;
    this.#icon.replaceChildren();
    if (!name) return;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('fill', 'currentColor');
    path.setAttribute('d', ICONS[name]!);
    svg.append(path);
    this.#icon.append(svg);
  }
}
