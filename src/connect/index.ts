/**
 * `loyalty-widgets/connect`: the browser Connect client without the elements. The page-wide session
 * and the launcher are light; the sign-in machinery (oidc-client-ts, jose) loads on first use.
 */
export { session, USER_STORAGE_KEY } from './session.ts';
export type {
  LoyaltyUser,
  SessionChangeReason,
  SessionListener,
  SessionStorageKind,
  SignInStarter,
} from './session.ts';
export { SignInError, signInErrorCode } from './errors.ts';
export type { SignInErrorCode } from './errors.ts';
export { DEFAULT_SCOPE, normalizeScope } from './options.ts';
export type { ConnectOptions } from './options.ts';
export { finishSignIn, forgetSignIn, loadSignInClient, prefetchSignInClient, startSignIn } from './launcher.ts';
export type { SignInMode, SignInOutcome } from './launcher.ts';
export { captureSignInResponse, takeCapturedResponse } from './callback.ts';
export { CLOCK_SKEW_SECONDS } from './options.ts';
