/** What `<loyalty-signin-button>` shows, as plain render functions of what they show. */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { LoyaltyUser } from '../../connect/session.ts';
import type { SignInErrorCode } from '../../connect/errors.ts';
import type { LocaleController } from '../../shared/i18n.ts';

const walletIcon = svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 6.5A2.5 2.5 0 0 1 6.5 4H18v3h1a1 1 0 0 1 1 1v10.5a1.5 1.5 0 0 1-1.5 1.5h-12A2.5 2.5 0 0 1 4 17.5v-11Zm2.5-.5a.5.5 0 0 0 0 1H16V6H6.5ZM15 12.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Z"/></svg>`;

/** The line under the button for a failed sign-in; an empty alert region when there is none. */
export function renderFailure(locale: LocaleController, failure: SignInErrorCode | undefined): TemplateResult {
  return failure
    ? html`<p part="message" role="alert">${locale.t(`signin.error.${failure}`)}</p>`
    : html`<p part="message" role="alert" hidden></p>`;
}

/** Who is signed in, and the sign-out button. */
export function renderSignedIn(locale: LocaleController, user: LoyaltyUser, signOut: () => void): TemplateResult {
  const name = user.username
    ? locale.t('signin.signed-in-as', { username: user.username })
    : locale.t('signin.signed-in');
  return html`<div class="row">
    <span part="user">${name}</span>
    <button part="signout" type="button" @click=${signOut}>${locale.t('signin.signout')}</button>
  </div>`;
}

/** Where the sign-in button stands. */
export interface SignInButtonState {
  pending: boolean;
  /** What screen readers hear while the sign-in runs. */
  pendingLabel: string;
  /** Why the program is unavailable, when it is. */
  unavailable: string | undefined;
  /** Something is wrong with the set-up (the button is disabled). */
  configProblem: boolean;
  failure: SignInErrorCode | undefined;
  /** The session ran out, said by this button. */
  expired: boolean;
}

/** The sign-in button, its live status, and the line under it: why it is unavailable or misconfigured, or what failed. */
export function renderSignInButton(
  locale: LocaleController,
  state: SignInButtonState,
  signIn: () => void,
): TemplateResult {
  const { pending, unavailable, failure, expired } = state;
  const misconfigured = state.configProblem && unavailable === undefined && !failure;
  return html`<button
      part="button"
      type="button"
      aria-busy=${pending ? 'true' : 'false'}
      aria-disabled=${unavailable !== undefined || pending || state.configProblem ? 'true' : nothing}
      aria-describedby=${unavailable !== undefined || misconfigured ? 'reason' : nothing}
      @click=${signIn}
    >
      <span part="icon">${pending ? html`<span class="spinner"></span>` : html`<slot name="icon">${walletIcon}</slot>`}</span>
      <span part="label"><slot>${locale.t('signin.label')}</slot></span>
    </button>
    <span class="visually-hidden" role="status"
      >${pending ? state.pendingLabel : expired ? locale.t('signin.expired') : ''}</span
    >
    ${
      unavailable !== undefined
        ? html`<p part="message" id="reason">${unavailable}</p>`
        : misconfigured
          ? html`<p part="message" id="reason">${locale.t('signin.error.config')}</p>`
          : expired && !failure && !pending
            ? html`<p part="message">${locale.t('signin.expired')}</p>`
            : renderFailure(locale, failure)
    }`;
}
