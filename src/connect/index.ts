/**
 * `loyalty-widgets/connect`: the browser Connect client without the elements. The page-wide session
 * and the launcher are light; the sign-in machinery (oidc-client-ts, jose) loads on first use.
 * What the elements alone need (the sign-in chunk loader, storage keys, clock skew) is imported from
 * its module directly and is not part of this entry.
 */
export { session } from './session.ts';
export type { LoyaltyUser, PageSession, SessionChangeReason, SessionListener, SessionStorageKind } from './session.ts';
export { SignInError, signInErrorCode } from './errors.ts';
export type { SignInErrorCode } from './errors.ts';
export { DEFAULT_SCOPE, normalizeScope } from './options.ts';
export type { ConnectOptions } from './options.ts';
export { finishSignIn, forgetSignIn, prefetchSignInClient, startSignIn } from './launcher.ts';
export type { SignInMode, SignInOutcome } from './launcher.ts';
export type { SignInResult } from './client.ts';
export { captureSignInResponse, takeCapturedResponse } from './callback.ts';
export type { PendingRequest } from './callback.ts';
