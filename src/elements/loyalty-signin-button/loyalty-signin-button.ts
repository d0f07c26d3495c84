import { html, type PropertyDeclarations, type PropertyValues } from 'lit';
import { warnOnce } from '../../shared/warn.ts';
import {
  captureSignInResponse,
  pendingRequest,
  takeCapturedResponse,
  takePopupResponsesAfterReload,
} from '../../connect/callback.ts';
import {
  finishSignIn,
  forgetSignIn,
  prefetchWhenLikely,
  startSignIn,
  type SignInMode,
} from '../../connect/launcher.ts';
import type { ConnectOptions } from '../../connect/options.ts';
import { session, type LoyaltyUser, type SessionChangeReason, type SessionStorageKind } from '../../connect/session.ts';
import { LoyaltyElement } from '../internal/loyalty-element.ts';
import { signinButtonStyles } from './loyalty-signin-button.styles.ts';
import { signinButtonMessages } from './loyalty-signin-button.messages.ts';
import { answers, isPageSignIn, pageConnectOptions, pinnedStorage } from './page-sign-in.ts';
import { SignInLaunch } from './signin-launch.ts';
import { renderFailure, renderSignedIn, renderSignInButton } from './signin-view.ts';

// A page opened as our sign-in popup hands the response to its opener and does nothing else;
// a page coming back from a redirect sign-in keeps the response for its button to finish.
const isHandOverPopup = captureSignInResponse();

/** Connected buttons in connection order; the first one reports session changes no button caused. */
const buttons: LoyaltySigninButton[] = [];
/** The button whose action is changing the session right now, which reports that change. */
let actingButton: LoyaltySigninButton | undefined;
/** Stops waiting for the popup of a sign-in an earlier page of this tab started. */
let stopTakingEarlierPopup: (() => void) | undefined;

function act(button: LoyaltySigninButton, change: () => void): void {
  actingButton = button;
  try {
    change();
  } finally {
    actingButton = undefined;
  }
}

const MODES: readonly SignInMode[] = ['popup', 'popup-only', 'redirect'];
const STORAGES: readonly SessionStorageKind[] = ['session', 'local', 'memory'];

export type { LoyaltySigninDetail, LoyaltySigninErrorDetail, LoyaltySignoutDetail } from './events.ts';

/**
 * A button that signs the shopper in with their loyalty wallet through Connect (OpenID Connect,
 * implicit flow) in a popup, and shows who is signed in with a sign-out control. The sign-in
 * machinery (oidc-client-ts, jose) loads when the shopper points at, focuses or presses the button.
 *
 * The page's sign-in is the merchant's: with `<meta name="loyalty-authority">` and
 * `<meta name="loyalty-client-id">` in the head, a button without those attributes uses them and one
 * naming another provider or app shows the set-up error; with none pinned, buttons that name different
 * ones all do, since the page cannot tell which is the merchant's. Other elements' "sign in" goes only to
 * a button that is the page's sign-in.
 *
 * The head's sign-in metas pin the redirect URI and the session's storage too: with any of them in the
 * head, a button whose `redirect-uri` or `storage` differs from the head's shows the set-up error.
 *
 * The session is page-wide: every button and widget on the page sees the same user; it is kept in
 * sessionStorage by default (`<meta name="loyalty-storage" content="local">` in the head, or `storage`
 * on a page whose head pins no sign-in, to change; the first button on the page decides) and restored
 * on reload until the access token expires, then signed out.
 *
 * When the session runs out (or the merchant's proxy refuses its tokens), every tab shows the button
 * again and one button on each page says, once, that the session has ended. After an explicit
 * sign-out nothing of the shopper stays on the page or in storage, and the next sign-in asks Connect
 * to make the shopper log in again (`prompt=login`, when Connect's discovery lists it).
 *
 * After a full-page redirect through the standalone callback page (`dist/callback.html`), the
 * page that started the sign-in finds the session kept by the callback page and reports it with
 * `reason: 'restored'`.
 *
 * A program that is not available for Connect yet (the spec lists one) is shown with `unavailable`:
 * the button is rendered disabled (`aria-disabled`) with the reason visible and tied to it with
 * `aria-describedby`; clicking it does nothing. The reason is `unavailable-reason`, or a localized
 * sentence naming `program`.
 *
 * @summary Sign in with the loyalty wallet (Connect) in a popup; shows the signed-in shopper.
 * @tag loyalty-signin-button
 *
 * @event {CustomEvent<LoyaltySigninDetail>} loyalty-signin - The shopper signed in or the session was restored. Detail `{ user, profile, reason }`; `user` carries `idToken` and `accessToken` for your server's `verifyShopper()`; `profile` is false when signed in without the `profile` scope (no username or loyalty ID); `reason` is `signin` or `restored`.
 * @event {CustomEvent<LoyaltySignoutDetail>} loyalty-signout - The shopper signed out or the session expired. Detail `{ reason }`: `signout` or `expired`.
 * @event {CustomEvent<LoyaltySigninErrorDetail>} loyalty-signin-error - A sign-in failed and nothing was used. Detail `{ code, message }`, `code` one of `access_denied`, `popup_blocked`, `popup_closed`, `invalid_token`, `state_mismatch`, `network`, `config`.
 *
 * @slot - A custom label for the sign-in button.
 * @slot icon - A custom icon before the label (a wallet by default).
 *
 * @csspart button - The sign-in button.
 * @csspart icon - The icon's wrapper.
 * @csspart label - The label's wrapper.
 * @csspart user - The signed-in shopper's name.
 * @csspart signout - The sign-out button.
 * @csspart message - The line under the button: an error (`role="alert"`) or why a program is unavailable.
 *
 * @cssproperty --loyalty-color-primary - Button background and sign-out text colour.
 * @cssproperty --loyalty-color-on-primary - Button text colour.
 * @cssproperty --loyalty-color-surface - Background of an unavailable button.
 * @cssproperty --loyalty-color-text - Text colour.
 * @cssproperty --loyalty-color-muted - Colour of the unavailable reason.
 * @cssproperty --loyalty-color-border - Border of an unavailable button.
 * @cssproperty --loyalty-color-danger - Colour of error messages.
 * @cssproperty --loyalty-radius - Corner radius of the buttons.
 * @cssproperty --loyalty-spacing - Base spacing unit.
 * @cssproperty --loyalty-focus-ring - Replaces the halo: the box-shadow around the focus outline.
 * @cssproperty --loyalty-focus-color - The keyboard focus outline (default a deep blue, white in the dark scheme).
 * @cssproperty --loyalty-focus-halo - The ring around the focus outline (default white, near-black in the dark scheme); keep it at least 9:1 from --loyalty-focus-color.
 */
export class LoyaltySigninButton extends LoyaltyElement {
  static override styles = signinButtonStyles;
  /** @internal */
  protected static override messages = signinButtonMessages;
  /** @internal The reactive properties, each documented at its field. */
  static override properties: PropertyDeclarations = {
    authority: {},
    clientId: { attribute: 'client-id' },
    redirectUri: { attribute: 'redirect-uri' },
    scope: {},
    mode: {},
    storage: {},
    pendingLabel: { attribute: 'pending-label' },
    program: {},
    unavailable: { type: Boolean, reflect: true },
    unavailableReason: { attribute: 'unavailable-reason' },
    expired: { state: true },
    configProblem: { state: true },
  };

  /**
   * `{connect_url}`, the Connect provider; discovery is read from `{authority}/.well-known/openid-configuration`.
   * Defaults to the head's `<meta name="loyalty-authority">`, which pins the page's sign-in: a button
   * naming another provider shows the set-up error and is never the page's sign-in.
   */
  authority = '';

  /** The registered app's `app_id`. Defaults to (and must match) the head's `<meta name="loyalty-client-id">`. */
  clientId = '';

  /**
   * One of the app's registered redirect URIs, on this site. Defaults to the head's
   * `<meta name="loyalty-redirect-uri">`, else the shipped `callback.html` beside the script tag when
   * this site serves `dist/` itself (not bundled), else the current page (origin and path). With
   * sign-in metas in the head, another one than the head's is a set-up error.
   */
  redirectUri = '';

  /** Space-separated scopes; `openid` is always included. */
  scope = 'openid profile';

  /** `popup` (falls back to a full-page redirect when the popup is blocked), `popup-only`, or `redirect`. */
  mode: SignInMode = 'popup';

  /**
   * Where the session is kept between page loads: `session` (sessionStorage), `local` (localStorage)
   * or `memory`. Defaults to the head's `<meta name="loyalty-storage">`, else `session`; with sign-in
   * metas in the head, another one than the head's is a set-up error.
   */
  storage: SessionStorageKind | undefined = undefined;

  /** What screen readers announce while the sign-in runs (defaults to a localized "Signing in…"). */
  pendingLabel = '';

  /** The loyalty program's name, shown in the reason when it is `unavailable`. */
  program = '';

  /** The program is not available for Connect yet: the button is disabled and says why. */
  unavailable = false;

  /** Why the program is unavailable, replacing the default sentence. */
  unavailableReason = '';

  /** The session ran out (or the proxy refused its tokens) while nobody was looking: said once, by one button. */
  private expired = false;
  /** What is wrong with `authority`, `client-id` or `redirect-uri`, shown before anyone clicks. */
  declare private configProblem: string | undefined;

  private readonly launch = new SignInLaunch(
    this,
    (user) => act(this, () => session.set(user, 'signin')),
    (detail) => this.emit('loyalty-signin-error', detail),
  );
  private unsubscribe?: () => void;
  private unregisterStarter?: () => void;
  private stopPrefetch?: () => void;

  /**
   * The signed-in shopper (`{ sub, username, loyaltyId, accessToken, idToken, expiresAt, scope }`), or
   * null. To reward the shopper, post `idToken` and `accessToken` to your server and check them there
   * with `verifyShopper()`; never trust a loyalty ID posted alone.
   */
  get user(): LoyaltyUser | null {
    return session.user;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    buttons.push(this);
    // Whether the page's buttons agree on one sign-in changes with every button that comes or goes.
    for (const button of buttons) button.requestUpdate();
    this.unsubscribe = session.subscribe((user, reason) => this.onSessionChange(user, reason));
    session.useStorage(this.storageKind);
    if (isHandOverPopup || this.unavailable) return;
    this.dropForeignSession();
    // Other elements' "sign in" goes only to a button that is the page's sign-in.
    this.unregisterStarter = session.registerSignInStarter(() => {
      if (this.unavailable || !isPageSignIn(this, buttons)) return false;
      this.signIn();
      return true;
    });
    if (!session.user) this.stopPrefetch = prefetchWhenLikely(this);
    const response = takeCapturedResponse((request) => answers(this, buttons, request));
    if (response) this.finishRedirect(response);
    stopTakingEarlierPopup ??= takePopupResponsesAfterReload((url, popup) =>
      LoyaltySigninButton.finishEarlierPopup(url, popup),
    );
  }

  /** The popup of a sign-in started before this page was reloaded answered: its button finishes it here. */
  private static finishEarlierPopup(responseUrl: string, popup: Window | null): void {
    const request = pendingRequest(responseUrl);
    const button = buttons.find((candidate) => !candidate.unavailable && answers(candidate, buttons, request));
    if (!button) return;
    popup?.close();
    button.finishRedirect(responseUrl);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    buttons.splice(buttons.indexOf(this), 1);
    for (const button of buttons) button.requestUpdate();
    this.unsubscribe?.();
    this.unregisterStarter?.();
    this.stopPrefetch?.();
  }

  /**
   * Starts a sign-in. Call it from a click (or key press) handler: the popup opens before this
   * method returns, so popup blockers let it through.
   */
  signIn(): void {
    if (this.unavailable || this.launch.pending || isHandOverPopup) return;
    const options = this.optionsOrFail();
    if (!options) return;
    this.launch.forget();
    this.expired = false;
    // This page's own popup answers oidc-client-ts; an earlier page's sign-in is over.
    stopTakingEarlierPopup?.();
    stopTakingEarlierPopup = () => undefined;
    this.launch.run(startSignIn(options, MODES.includes(this.mode) ? this.mode : 'popup'));
  }

  /** Signs the shopper out and forgets everything kept about them (memory and storage). */
  signOut(): void {
    let options: ConnectOptions | undefined;
    try {
      options = this.connectOptions();
    } catch {
      options = undefined;
    }
    forgetSignIn(options);
    this.launch.forget();
    this.expired = false;
    act(this, () => session.set(null, 'signout'));
  }

  /** The head's storage when it pins the sign-in, else `storage`, as one of the kinds; anything else keeps sessionStorage. */
  private get storageKind(): SessionStorageKind {
    const kind = (pinnedStorage() ?? this.storage ?? 'session') as SessionStorageKind;
    if (STORAGES.includes(kind)) return kind;
    warnOnce(this, `storage="${kind}" is not one of ${STORAGES.join(', ')}; the session is kept in sessionStorage.`);
    return 'session';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Set-up mistakes are visible at once (and in the console), not only after a shopper's click,
    // and go away as soon as the attribute (or the other button) is corrected.
    try {
      this.connectOptions();
      this.configProblem = undefined;
      if (this.launch.failure === 'config' && this.launch.failedOnSetUp) this.launch.forget();
    } catch (error) {
      this.configProblem = error instanceof Error ? error.message : String(error);
      warnOnce(this, this.configProblem);
    }
    if (changed.has('mode') && !MODES.includes(this.mode)) {
      warnOnce(this, `mode="${this.mode}" is not one of ${MODES.join(', ')}; signing in with a popup.`);
    }
  }

  /** A kept shopper who signed in with another provider or app than this page's sign-in is signed out. */
  private dropForeignSession(): void {
    const user = session.user;
    if (!user?.issuer || !isPageSignIn(this, buttons)) return;
    const { authority, clientId } = this.connectOptions();
    if (user.issuer !== authority || user.clientId !== clientId) act(this, () => session.set(null, 'signout'));
  }

  /** The options of a sign-in that is the page's (the merchant's), or a `config` SignInError. */
  private connectOptions(): ConnectOptions {
    return pageConnectOptions(this, buttons);
  }

  private finishRedirect(responseUrl: string): void {
    const options = this.optionsOrFail();
    if (options) this.launch.run(finishSignIn(options, responseUrl));
  }

  /** The connect options, or undefined after reporting a `config` error. */
  private optionsOrFail(): ConnectOptions | undefined {
    try {
      return this.connectOptions();
    } catch (error) {
      this.launch.fail(error, true);
      return undefined;
    }
  }

  private onSessionChange(user: LoyaltyUser | null, reason: SessionChangeReason): void {
    // The page's focused element, also while the sign-in popup is in front (`:focus-within` then fails).
    const hadFocus = (this.renderRoot as ShadowRoot).activeElement !== null;
    if (user) this.launch.forget();
    const reporting = (actingButton ?? buttons[0]) === this;
    this.expired = !user && reason === 'expired' && reporting;
    this.requestUpdate();
    if (hadFocus)
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>(user ? '[part~="signout"]' : '[part~="button"]')?.focus(),
      );
    if (!reporting) return;
    if (user) {
      const profile = user.scope.split(' ').includes('profile');
      this.emit('loyalty-signin', {
        user,
        profile,
        reason: reason === 'restored' ? 'restored' : 'signin',
      });
    } else {
      this.emit('loyalty-signout', { reason: reason === 'expired' ? 'expired' : 'signout' });
    }
  }

  /** Why the program is unavailable, or undefined while it is available. */
  private unavailableText(): string | undefined {
    if (!this.unavailable) return undefined;
    if (this.unavailableReason.trim()) return this.unavailableReason.trim();
    const program = this.program.trim();
    return program ? this.locale.t('signin.unavailable', { program }) : this.locale.t('signin.unavailable-generic');
  }

  override render() {
    const { locale } = this;
    const { pending, failure } = this.launch;
    const user = session.user;
    if (user) return html`${renderSignedIn(locale, user, () => this.signOut())} ${renderFailure(locale, failure)}`;
    const state = {
      pending,
      pendingLabel: this.pendingLabel.trim() || locale.t('signin.pending'),
      unavailable: this.unavailableText(),
      configProblem: this.configProblem !== undefined,
      failure,
      expired: this.expired,
    };
    return html`${renderSignInButton(locale, state, () => this.signIn())}`;
  }
}
