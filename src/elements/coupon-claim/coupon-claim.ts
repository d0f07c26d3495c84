import { Task } from '@lit/task';
import { html, nothing, type PropertyValues, type PropertyDeclarations, type TemplateResult } from 'lit';
import { session } from '../../connect/session.ts';
import { read } from '../../marketing/requests.ts';
import { parseCampaign } from '../../marketing/responses.ts';
import { isClaiming, storedCoupon } from '../../marketing/kept-coupons.ts';
import { MarketingError } from '../../marketing/errors.ts';
import type { Campaign } from '../../marketing/types.ts';
import { resolveEndpoint } from '../../shared/config.ts';
import { onIntent } from '../../shared/intent.ts';
import { themeStyles } from '../../shared/theme.styles.ts';
import { errorMessage } from '../internal/error-message.ts';
import { focusReplacement } from '../internal/focus.ts';
import { currencyOf, formatPrice } from '../internal/price.ts';
import { renderFailure, renderSkeleton } from '../internal/status.ts';
import { MarketingElement } from '../internal/marketing-element.ts';
import { statusStyles } from '../internal/status.styles.ts';
import { AbortOnDisconnect, failureOf, isWaiting } from '../internal/tasks.ts';
import { couponClaimStyles } from './coupon-claim.styles.ts';
import { couponClaimMessages } from './coupon-claim.messages.ts';
import { onCampaignClaims } from './campaign-claims.ts';
import { copyOrSelect, renderClaimButton, renderCoupon, renderHeading, renderSignInPrompt } from './claim-view.ts';

export type { CouponClaimedDetail, CouponClaimErrorDetail } from './events.ts';

let claimPath: Promise<typeof import('./claim-request.ts')> | undefined;

/** The claim's own code, fetched on the shopper's intent or at the claim; a failed load is tried again at the next. */
function loadClaimPath(): Promise<typeof import('./claim-request.ts')> {
  claimPath ??= import('./claim-request.ts').catch((error: unknown) => {
    claimPath = undefined;
    throw new MarketingError('network', 0, `The coupon’s claim could not be loaded (${String(error)}).`);
  });
  return claimPath;
}

/**
 * @summary Lets the shopper claim a campaign's coupon, exactly once, and shows the code again after a reload.
 * @tag coupon-claim
 *
 * @event {CustomEvent<CouponClaimedDetail>} coupon-claimed - A coupon was received. `detail: { campaignId, code }`.
 * @event {CustomEvent<CouponClaimErrorDetail>} coupon-claim-error - A claim failed. `detail: { campaignId, code, message }`.
 *
 * @csspart base - The wrapper of the whole element.
 * @csspart title - The campaign's title.
 * @csspart price - The coupon's price.
 * @csspart claim-button - The "Get coupon" button.
 * @csspart signin-button - The button that asks the page's sign-in button to sign the shopper in.
 * @csspart coupon - The box around the received code.
 * @csspart code - The coupon code.
 * @csspart copy-button - The copy-to-clipboard button.
 * @csspart another-button - The "Get another coupon" button (with `allow-multiple`).
 * @csspart message - Notes such as "this campaign has no coupon".
 * @csspart error - A failure message with its retry button.
 * @csspart retry-button - The retry button of a failure.
 * @csspart skeleton - A placeholder shown while loading.
 *
 * @cssproperty --loyalty-color-primary - Buttons.
 * @cssproperty --loyalty-color-on-primary - Text on primary buttons.
 * @cssproperty --loyalty-color-text - Text colour.
 * @cssproperty --loyalty-color-muted - Secondary text (price, labels).
 * @cssproperty --loyalty-color-border - Skeletons.
 * @cssproperty --loyalty-color-danger - Failure border.
 * @cssproperty --loyalty-color-success - The received code's border, confirming the claim.
 * @cssproperty --loyalty-radius - Corner radius.
 * @cssproperty --loyalty-spacing - Base spacing.
 * @cssproperty --loyalty-focus-color - The keyboard focus outline (default a deep blue, white in the dark scheme).
 * @cssproperty --loyalty-focus-halo - The ring around the focus outline (default white, near-black in the dark scheme); keep it at least 9:1 from --loyalty-focus-color.
 * @cssproperty --loyalty-code-font - Font of the coupon code (default monospace).
 * @cssproperty --loyalty-code-size - Size of the coupon code (default 1.5em).
 */
export class CouponClaim extends MarketingElement {
  static override styles = [themeStyles, statusStyles, couponClaimStyles];
  /** @internal */
  protected static override messages = couponClaimMessages;
  /** @internal The reactive properties, each documented at its field. */
  static override properties: PropertyDeclarations = {
    campaignId: { attribute: 'campaign-id', reflect: true },
    requireSignin: { attribute: 'require-signin', type: Boolean, reflect: true },
    allowMultiple: { attribute: 'allow-multiple', type: Boolean, reflect: true },
    currency: {},
    compact: { type: Boolean, reflect: true },
    campaign: { attribute: false },
    claiming: { state: true },
    claimError: { state: true },
    announcement: { state: true },
    copyFailed: { state: true },
    noSignInButton: { state: true },
  };

  /** The campaign whose coupon is claimed. */
  campaignId = '';

  /**
   * Only a signed-in shopper may claim; the shopper's tokens are sent to the proxy, which must be on
   * this page's origin or one listed in `<meta name="loyalty-token-origins">`. This is the page's
   * side: for the proxy to refuse anyone else, give it `requireSignin` (`true`, or a list that holds
   * this campaign's id).
   */
  requireSignin = false;

  /** The shopper may ask for another coupon after receiving one. */
  allowMultiple = false;

  /** ISO 4217 code used to format a numeric price, e.g. `EUR`. */
  declare currency?: string;

  /** Only the claim controls, without title and price (for a campaign shown around it). */
  compact = false;

  /** The campaign when the page already has it (saves a request); must match `campaign-id`. */
  declare campaign?: Campaign;

  private claiming = false;
  declare private claimError: unknown;
  private announcement = '';
  private copyFailed = false;
  private noSignInButton = false;

  /** The shopper pressed "sign in to get this coupon" (or a claim needed it): claim once they are signed in. */
  #claimAfterSignIn = false;
  /** Whose claim the live region speaks of (`sub`, or undefined for a guest). */
  #announcedFor: string | undefined;
  /** Whether the failed claim was for another coupon, so that its retry is too (and reuses its key). */
  #failedAnother = false;
  /** Counts sign-outs: a claim's answer that arrives after one reports nothing of the shopper who left. */
  #signOuts = 0;
  #unsubscribe: (() => void)[] = [];

  readonly #campaignTask = new Task(this, {
    args: () => [resolveEndpoint(this.endpoint), this.campaignId.trim(), this.campaign] as const,
    task: async ([endpoint, id, given], { signal }): Promise<Campaign> => {
      if (!id) throw new MarketingError('config', 0, 'The campaign-id attribute is missing.');
      if (given?.id === id) return given;
      return read(endpoint, 'campaign', { id }, parseCampaign, signal);
    },
  });

  constructor() {
    super();
    new AbortOnDisconnect(this, [this.#campaignTask]);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unsubscribe = [
      session.subscribe((user, reason) => {
        this.requestUpdate();
        if (!user || user.sub !== this.#announcedFor) {
          // Nothing said to the previous shopper stays for the next one, not even in a live region.
          this.announcement = '';
          this.copyFailed = false;
          if (reason === 'signout') {
            this.#signOuts++;
            this.claimError = undefined;
            this.#claimAfterSignIn = false;
          }
        }
        if (user && this.#claimAfterSignIn) {
          this.#claimAfterSignIn = false;
          void this.claim();
        }
      }),
      onCampaignClaims(this),
      onIntent(this, () => void loadClaimPath().catch(() => undefined)),
    ];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const stop of this.#unsubscribe.splice(0)) stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another campaign: what was said about the previous one no longer applies.
    if (changed.has('campaignId')) {
      this.claimError = undefined;
      this.announcement = '';
      this.copyFailed = false;
    }
  }

  /** The shopper the coupon belongs to: the signed-in `sub`, or anonymous. */
  get #shopper(): string | undefined {
    return session.user?.sub;
  }

  /** Claims the coupon (or returns the one already kept). `another` asks for a new one (`allow-multiple`). */
  async claim(another = false): Promise<void> {
    const campaignId = this.campaignId.trim();
    const user = session.user;
    if (this.claiming || !campaignId) return;
    // Signed out meanwhile (the session ran out, another tab signed out): sign in first, then claim.
    if (this.requireSignin && !user) return this.#signIn();
    const hadFocus = this.matches(':focus-within');
    this.claiming = true;
    this.claimError = undefined;
    const signOuts = this.#signOuts;
    try {
      const endpoint = resolveEndpoint(this.endpoint);
      const options = { requireSignin: this.requireSignin, another: another && this.allowMultiple };
      const { claimAsShopper } = await loadClaimPath();
      const { code } = await claimAsShopper(endpoint, campaignId, user, options);
      // Signed out meanwhile: the next person hears nothing of the previous shopper's coupon.
      if (signOuts !== this.#signOuts) return;
      // A shopper who signed in or out meanwhile is not named to whoever is at the screen now.
      if (session.user?.sub === user?.sub) {
        this.#announcedFor = user?.sub;
        this.announcement = this.locale.t('coupon.claimed', { code });
      }
      this.emit('coupon-claimed', { campaignId, code });
    } catch (error) {
      if (signOuts !== this.#signOuts) return;
      this.claimError = error;
      this.#failedAnother = another;
      const code = error instanceof MarketingError ? error.code : 'unknown';
      this.emit('coupon-claim-error', { campaignId, code, message: errorMessage(this.locale, error) });
    } finally {
      this.claiming = false;
    }
    // The button that had focus is gone: keep keyboard users on what replaced it.
    if (hadFocus)
      await focusReplacement(this, '[part~="copy-button"], [part~="retry-button"], [part~="signin-button"]');
  }

  #signIn(): void {
    this.#claimAfterSignIn = true;
    this.noSignInButton = !session.requestSignIn();
  }

  async #copy(code: string): Promise<void> {
    this.copyFailed = !(await copyOrSelect(code, this.renderRoot.querySelector('[part~="code"]')));
    if (this.copyFailed) return;
    this.#announcedFor = session.user?.sub;
    this.announcement = this.locale.t('coupon.copied');
  }

  override render(): TemplateResult {
    const task = this.#campaignTask;
    const failure = failureOf(task);
    return html`<div part="base" class="base" aria-busy=${isWaiting(task) ? 'true' : 'false'}>
      ${
        isWaiting(task)
          ? html`${this.compact ? nothing : renderSkeleton(2, 'text')}${renderSkeleton(1, 'line')}`
          : failure || !task.value
            ? renderFailure(this, this.locale, failure, () => void task.run())
            : this.#renderCampaign(task.value)
      }
      <p class="visually-hidden" role="status">${this.announcement}</p>
    </div>`;
  }

  #renderCampaign(campaign: Campaign): TemplateResult {
    const { objective } = campaign;
    if (objective.kind !== 'coupon')
      return html`${this.compact ? nothing : renderHeading(campaign, '')}
        <p part="message">${this.locale.t('coupon.none')}</p>`;
    const price = formatPrice(objective.price, this.locale.lang, currencyOf(this, this.currency));
    return html`${this.compact ? nothing : renderHeading(campaign, price)} ${this.#renderClaim()}`;
  }

  #renderClaim(): TemplateResult {
    const { locale, claimError } = this;
    const id = this.campaignId.trim();
    // Only what this element's own endpoint gave: another origin's code is not this proxy's coupon.
    const endpoint = resolveEndpoint(this.endpoint);
    const kept = storedCoupon(id, this.#shopper, endpoint);
    const claiming = this.claiming || isClaiming(id, this.#shopper, endpoint);
    // The proxy wants a (new) sign-in: offer it rather than a retry that cannot succeed.
    const refused = claimError instanceof MarketingError && claimError.status === 401 && !claiming;
    // A kept coupon (perhaps from another element or tab) is the answer, whatever failed before it.
    if (kept && !this.claiming) {
      return renderCoupon(locale, kept.code, {
        copyFailed: this.copyFailed,
        copy: () => void this.#copy(kept.code),
        another: this.allowMultiple ? () => void this.claim(true) : undefined,
      });
    }
    if (refused || (this.requireSignin && !session.user && !claiming)) {
      const refusal = refused ? errorMessage(locale, claimError) : undefined;
      return renderSignInPrompt(locale, { refusal, noSignInButton: this.noSignInButton, signIn: () => this.#signIn() });
    }
    if (claimError && !claiming)
      return renderFailure(this, locale, claimError, () => void this.claim(this.#failedAnother));
    return renderClaimButton(locale, claiming, () => void this.claim());
  }
}
