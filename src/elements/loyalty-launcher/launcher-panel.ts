/**
 * The launcher's panel, loaded on the shopper's intent: a `<dialog>` in the launcher's shadow root
 * holding the program's own elements (sign-in button, carousel, coupons, directory), which bring
 * their behaviour and their data with them.
 */
import { html, nothing, svg, type PropertyDeclarations, type TemplateResult } from 'lit';
import { session } from '../../connect/session.ts';
import { defineElement } from '../../shared/define.ts';
import { emit } from '../../shared/emit.ts';
import { themeStyles } from '../../shared/theme.styles.ts';
import { LoyaltyElement } from '../internal/loyalty-element.ts';
import '../loyalty-signin-button/index.ts';
import '../campaign-carousel/index.ts';
import '../coupon-claim/index.ts';
import '../business-directory/index.ts';
import type { LauncherCloseReason, LauncherOpenTrigger, LauncherSection } from './events.ts';
import { panelFrameStyles, panelStyles } from './launcher-panel.styles.ts';
import { panelMessages } from './launcher-panel.messages.ts';
import type { LauncherHost } from './launcher-host.ts';

/** The widest screen on which the panel is a modal sheet covering it. */
const SHEET = '(max-width: 480px)';
const SECTIONS: readonly LauncherSection[] = ['account', 'campaigns', 'coupons', 'partners'];
const closeIcon = svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6 6.4 5Z"/></svg>`;

/** The panel's content: what the shopper sees, signed out or in. Internal to `<loyalty-launcher>`. */
export class LauncherPanelContent extends LoyaltyElement {
  static override styles = [themeStyles, panelStyles];
  /** @internal */
  protected static override messages = panelMessages;
  /** @internal */
  static override properties: PropertyDeclarations = { launcher: { attribute: false } };

  declare launcher: LauncherHost;
  #stop: (() => void)[] = [];

  override connectedCallback(): void {
    super.connectedCallback();
    this.#stop = [
      session.subscribe((user, reason) => {
        // What the previous shopper got is not shown to whoever is at the screen next.
        if (!user && reason !== 'restored') this.launcher.coupons.forget();
        this.requestUpdate();
      }),
      this.launcher.coupons.onChange(() => this.requestUpdate()),
    ];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const stop of this.#stop.splice(0)) stop();
  }

  /** Moves focus to the panel's first control. */
  focusStart(): void {
    this.renderRoot.querySelector<HTMLElement>('[part~="close-button"]')?.focus();
  }

  #section(name: LauncherSection, title: string, content: unknown): TemplateResult {
    return html`<section part="section ${name}" class="section" data-section=${name} aria-labelledby="${name}-title">
      <h3 part="section-title" class="section-title" id="${name}-title">${this.locale.t(title)}</h3>
      ${content}
    </section>`;
  }

  override render(): TemplateResult {
    const { locale, launcher } = this;
    const signedIn = session.user !== null;
    const endpoint = launcher.endpoint.trim() || nothing;
    return html`<div part="header" class="header">
        <h2 part="title" class="title" id="title">${launcher.labelText}</h2>
        <button
          part="close-button"
          class="close"
          type="button"
          aria-label=${locale.t('launcher.close')}
          @click=${() => void launcher.close('close-button')}
        >
          ${closeIcon}
        </button>
      </div>
      ${this.#section(
        'account',
        signedIn ? 'launcher.account' : 'launcher.join',
        // Both lines hold their place, one of them hidden, so signing in or out moves nothing below.
        html`<div class="stack">
            <p class="intro" ?hidden=${signedIn}>${locale.t('launcher.intro')}</p>
            <p class="intro" ?hidden=${!signedIn}>${locale.t('launcher.member')}</p>
          </div>
          <loyalty-signin-button></loyalty-signin-button>`,
      )}
      ${this.#section(
        'campaigns',
        'launcher.campaigns',
        html`<campaign-carousel
          ?claim=${signedIn}
          heading-level="4"
          label=${locale.t('launcher.campaigns')}
          endpoint=${endpoint}
          business-account-id=${launcher.businessAccountId.trim() || nothing}
          currency=${launcher.currency.trim() || nothing}
        ></campaign-carousel>`,
      )}
      ${signedIn ? this.#memberSections(endpoint) : nothing}`;
  }

  /** What only a signed-in shopper sees: the coupons got in this visit, and the partner businesses. */
  #memberSections(endpoint: string | typeof nothing): TemplateResult {
    const { locale, launcher } = this;
    const coupons = launcher.coupons.list();
    return html`${this.#section(
      'coupons',
      'launcher.coupons',
      coupons.length
        ? html`<ul part="coupon-list" class="coupons">
            ${coupons.map(
              (id) =>
                html`<li>
                  <coupon-claim
                    campaign-id=${id}
                    endpoint=${endpoint}
                    currency=${launcher.currency.trim() || nothing}
                  ></coupon-claim>
                </li>`,
            )}
          </ul>`
        : html`<p class="note">${locale.t('launcher.no-coupons')}</p>`,
    )}
    ${this.#section(
      'partners',
      'launcher.partners',
      html`<business-directory heading-level="4" endpoint=${endpoint}></business-directory>`,
    )}`;
  }
}

defineElement('loyalty-launcher-panel', LauncherPanelContent);

let panels = 0;

/** The dialog around the content: opening, closing, focus, Escape, and the events for each. */
export class LauncherPanel {
  readonly dialog: HTMLDialogElement;
  readonly content: LauncherPanelContent;
  readonly #launcher: LauncherHost;
  #section: LauncherSection | null = null;

  constructor(launcher: LauncherHost) {
    this.#launcher = launcher;
    const dialog = (this.dialog = document.createElement('dialog'));
    dialog.id = `loyalty-launcher-panel-${++panels}`;
    dialog.setAttribute('part', 'panel');
    this.content = document.createElement('loyalty-launcher-panel') as LauncherPanelContent;
    this.content.launcher = launcher;
    this.content.setAttribute('exportparts', 'header, title, close-button, section, section-title, coupon-list');
    dialog.append(this.content);
    const root = launcher.shadowRoot!;
    if (panelFrameStyles.styleSheet)
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, panelFrameStyles.styleSheet];
    root.append(dialog);
    launcher.button.setAttribute('aria-controls', dialog.id);
    // Escape closes it, modal or not; the browser's own closing (a modal's Escape) ends the same way.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      this.close('escape');
    });
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      this.close('escape');
    });
    dialog.addEventListener('close', () => this.#closed('escape'));
    // Where the shopper went: focus, and the key that moved it (a window without system focus, a
    // background tab's say, moves focus without focus events), or the pointer.
    for (const type of ['focusin', 'keyup', 'pointerdown'])
      dialog.addEventListener(type, (event) => this.#moved(event));
  }

  /** Renders again after a change of the launcher's attributes. */
  update(): void {
    this.content.requestUpdate();
  }

  async open(trigger: LauncherOpenTrigger): Promise<void> {
    const { dialog } = this;
    if (dialog.open) return;
    const modal = matchMedia(SHEET).matches;
    dialog.classList.toggle('sheet', modal);
    dialog.setAttribute('aria-label', this.#launcher.labelText);
    this.#section = null;
    if (modal) dialog.showModal();
    else dialog.show();
    this.#launcher.expanded(true);
    emit(this.#launcher, 'loyalty-launcher-open', { trigger, modal });
    await this.content.updateComplete;
    this.content.focusStart();
  }

  close(reason: LauncherCloseReason): void {
    if (!this.dialog.open) return;
    this.dialog.close();
    this.#closed(reason);
  }

  /** Once per closing, however it came. */
  #closed(reason: LauncherCloseReason): void {
    const launcher = this.#launcher;
    if (!launcher.opened) return;
    launcher.expanded(false);
    if (launcher.isConnected) launcher.button.focus();
    launcher.forgetLink();
    emit(launcher, 'loyalty-launcher-close', { reason });
  }

  #moved(event: Event): void {
    const section = event
      .composedPath()
      .map((node) => (node instanceof HTMLElement ? node.dataset.section : undefined))
      .find((name): name is LauncherSection => SECTIONS.includes(name as LauncherSection));
    if (!section || section === this.#section) return;
    const previous = this.#section;
    this.#section = section;
    emit(this.#launcher, 'loyalty-launcher-section', { section, previous });
  }
}
