import type { ReactiveControllerHost } from 'lit';
import type { SignInResult } from '../../connect/client.ts';
import { signInErrorCode, type SignInErrorCode } from '../../connect/errors.ts';
import type { SignInOutcome } from '../../connect/launcher.ts';
import type { LoyaltyUser } from '../../connect/session.ts';
import type { LoyaltySigninErrorDetail } from './events.ts';
import { warnOnce } from '../../shared/warn.ts';

/**
 * One button's sign-in while it runs and after it failed: busy until it settles, then the shopper
 * goes to `signedIn`, or the failure is kept (shown under the button) and reported to `failed`.
 */
export class SignInLaunch {
  /** A sign-in runs. */
  pending = false;
  /** What the last sign-in failed with, until it is forgotten. */
  failure: SignInErrorCode | undefined;
  /** The failure is the button's own set-up (its attributes), which a correction makes go away. */
  failedOnSetUp = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly signedIn: (user: LoyaltyUser) => void,
    private readonly failed: (detail: LoyaltySigninErrorDetail) => void,
  ) {}

  /** Shows the pending state while a sign-in runs, then fills the session or reports the failure. */
  run(signIn: Promise<SignInOutcome | SignInResult>): void {
    this.pending = true;
    this.host.requestUpdate();
    signIn.then(
      (outcome) => {
        // A redirect settles only if the shopper comes back with the Back button (page cache).
        this.pending = false;
        this.host.requestUpdate();
        if ('user' in outcome) this.signedIn(outcome.user);
      },
      (error: unknown) => {
        this.pending = false;
        this.fail(error);
      },
    );
  }

  fail(error: unknown, onSetUp = false): void {
    const code = signInErrorCode(error);
    this.failure = code;
    this.failedOnSetUp = onSetUp;
    this.host.requestUpdate();
    const message = error instanceof Error ? error.message : String(error);
    // A set-up problem says in the console what is wrong and what to do; the shopper sees a plain sentence.
    if (code === 'config') warnOnce(this.host as unknown as Element, message);
    this.failed({ code, message });
  }

  /** The failure no longer applies (a new sign-in, a sign-out, a corrected set-up). */
  forget(): void {
    this.failure = undefined;
    this.host.requestUpdate();
  }
}
