/**
 * The sign-in code (oidc-client-ts, jose) loads on the shopper's intent, not with the page: here it
 * has not loaded when the shopper reaches the button with the keyboard and presses Enter at once,
 * and the popup still opens inside that press (Firefox and WebKit keep their popup blockers on).
 */
import { expect } from '@open-wc/testing';
import { signInClientLoaded } from '../../../src/connect/launcher.ts';
import { hostileButton, hostileStats, resetSession, setScenario, signInOnce } from './helpers.ts';

/** The browser's next idle period; WebKit has no requestIdleCallback, so there: after a frame and a task. */
const idle = () =>
  new Promise<void>((resolve) =>
    'requestIdleCallback' in window
      ? requestIdleCallback(() => resolve())
      : requestAnimationFrame(() => setTimeout(resolve, 0)),
  );

describe('<loyalty-signin-button> loading its sign-in code on intent', () => {
  afterEach(() => resetSession());

  it('signs in through the popup on a first key press, with no hover before it', async () => {
    await setScenario('valid');
    const el = await hostileButton();
    // The browser has been idle and the button is in view: neither loads the sign-in code any more.
    await idle();
    expect(el.getBoundingClientRect().height, 'the button is shown').to.be.above(0);
    expect(signInClientLoaded(), 'the sign-in code before any intent').to.equal(false);
    const event = await signInOnce(el);
    expect(event.type, event.detail.message).to.equal('loyalty-signin');
    expect((await hostileStats()).authRequests).to.have.length(1);
  });
});
