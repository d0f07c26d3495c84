/** Why a sign-in did not give a user; the `code` of the `loyalty-signin-error` event. */
export type SignInErrorCode =
  'access_denied' | 'popup_blocked' | 'popup_closed' | 'invalid_token' | 'state_mismatch' | 'network' | 'config';

/** A sign-in failure with a stable code a page can branch on, and a developer-facing message. */
export class SignInError extends Error {
  readonly code: SignInErrorCode;

  constructor(code: SignInErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInError';
    this.code = code;
  }
}

/**
 * Reads the code of anything thrown during a sign-in; unknown failures count as `network`.
 *
 * @example
 * ```ts
 * import { signInErrorCode } from 'loyalty-widgets/connect';
 *
 * signInErrorCode(new TypeError('Failed to fetch')); // 'network'
 * ```
 */
export function signInErrorCode(error: unknown): SignInErrorCode {
  return error instanceof SignInError ? error.code : 'network';
}
