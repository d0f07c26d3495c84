/**
 * Issue 25, finding 2: a block's sign-in button with another provider must not become the page's
 * sign-in. The merchant pins theirs in the head (<meta name="loyalty-authority">, "loyalty-client-id");
 * a button that differs from the pin, or (with none pinned) from the page's other buttons, shows the
 * set-up error and is never the one other elements ask to sign the shopper in.
 */
import { expect, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/loyalty-signin-button/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import type { LoyaltySigninButton } from '../../../src/elements/loyalty-signin-button/index.ts';
import type { TestEnv } from '../../support/services.ts';
import { part, showsOneOf } from '../parts.ts';
import { PageSession, session, USER_STORAGE_KEY } from '../../../src/connect/session.ts';
import { hostileButton, hostileEnv, hostileStats, setScenario, signInOnce } from '../signin/helpers.ts';
import { aShopper, clearPage, inBlock, placeBlock } from './helpers.ts';

const LATTE = 'camp-harbor-morning-latte';
const CONFIG_TEXT = 'Sign-in is not set up correctly on this site.';

/** Records which buttons started a sign-in: window.open answers null, so popup-only buttons fail with popup_blocked. */
function watchStarts(buttons: LoyaltySigninButton[]) {
  const original = window.open;
  window.open = () => null;
  const started: LoyaltySigninButton[] = [];
  for (const button of buttons)
    button.addEventListener('loyalty-signin-error', (event) => {
      if ((event as CustomEvent<{ code: string }>).detail.code === 'popup_blocked') started.push(button);
    });
  return { started, restore: () => void (window.open = original) };
}

function pin(name: string, content: string): void {
  document.head.append(Object.assign(document.createElement('meta'), { name, content }));
}

describe('a block’s sign-in button with another provider', () => {
  let env: TestEnv;
  let hostile: { url: string; clientId: string };
  before(async () => {
    env = (await (await fetch('/__env.json')).json()) as TestEnv;
    hostile = await hostileEnv();
  });
  beforeEach(async () => {
    clearPage();
    await setScenario('valid');
  });
  afterEach(() => {
    clearPage();
    for (const meta of document.head.querySelectorAll('meta[name^="loyalty-"]')) meta.remove();
  });

  /** The block's button above the merchant's button and coupon (the merchant's, without attributes when pinned). */
  async function page(merchantAttributes: string) {
    const block = placeBlock(
      `<loyalty-signin-button mode="popup-only" authority="${hostile.url}" client-id="${hostile.clientId}"></loyalty-signin-button>`,
    );
    const merchant = placeBlock(
      `<loyalty-signin-button mode="popup-only" ${merchantAttributes}></loyalty-signin-button>
       <coupon-claim campaign-id="${LATTE}" require-signin></coupon-claim>`,
    );
    const theirs = inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button');
    const mine = inBlock<LoyaltySigninButton>(merchant, 'loyalty-signin-button');
    const coupon = inBlock<CouponClaim>(merchant, 'coupon-claim');
    await Promise.all([theirs.updateComplete, mine.updateComplete]);
    await showsOneOf(coupon, ['signin-button', 'error']);
    return { theirs, mine, coupon };
  }

  it('with the merchant’s sign-in pinned in the head: the coupon’s “sign in” uses the merchant’s button, the block’s shows the set-up error', async () => {
    pin('loyalty-authority', env.connectUrl);
    pin('loyalty-client-id', env.clientId);
    const { theirs, mine, coupon } = await page('');
    const starts = watchStarts([theirs, mine]);
    try {
      part(coupon, 'signin-button')!.click();
      await waitUntil(() => starts.started.length > 0, 'a button started a sign-in');
      expect(starts.started.map((button) => (button === mine ? 'merchant' : 'block'))).to.deep.equal(['merchant']);
    } finally {
      starts.restore();
    }
    await theirs.updateComplete;
    expect(part(theirs, 'message')?.textContent).to.equal(CONFIG_TEXT);
    expect(part(theirs, 'button')?.getAttribute('aria-disabled')).to.equal('true');
    expect(part(mine, 'button')?.getAttribute('aria-disabled')).to.equal(null);
    expect((await hostileStats()).authRequests).to.have.length(0);
  });

  it('with nothing pinned and two buttons that disagree: neither is the page’s sign-in, both say the set-up is wrong', async () => {
    const { theirs, mine, coupon } = await page(`authority="${env.connectUrl}" client-id="${env.clientId}"`);
    const starts = watchStarts([theirs, mine]);
    try {
      part(coupon, 'signin-button')!.click();
      await coupon.updateComplete;
      await showsOneOf(coupon, ['message']);
      expect(starts.started).to.have.length(0);
      expect(part(coupon, 'message')?.textContent).to.equal('Please sign in with this page’s sign-in button first.');
    } finally {
      starts.restore();
    }
    await Promise.all([theirs.updateComplete, mine.updateComplete]);
    expect(part(theirs, 'message')?.textContent).to.equal(CONFIG_TEXT);
    expect(part(mine, 'message')?.textContent).to.equal(CONFIG_TEXT);
    expect((await hostileStats()).authRequests).to.have.length(0);
  });

  it('a page whose buttons agree keeps signing in from any of them, and its coupon asks the first', async () => {
    const block = placeBlock(
      `<loyalty-signin-button mode="popup-only" authority="${env.connectUrl}" client-id="${env.clientId}"></loyalty-signin-button>
       <loyalty-signin-button mode="popup-only" authority="${env.connectUrl}/" client-id="${env.clientId}"></loyalty-signin-button>
       <coupon-claim campaign-id="${LATTE}" require-signin></coupon-claim>`,
    );
    const [first, second] = [...block.querySelectorAll<LoyaltySigninButton>('loyalty-signin-button')];
    const coupon = inBlock<CouponClaim>(block, 'coupon-claim');
    await Promise.all([first!.updateComplete, second!.updateComplete]);
    await showsOneOf(coupon, ['signin-button']);
    const starts = watchStarts([first!, second!]);
    try {
      part(coupon, 'signin-button')!.click();
      await waitUntil(() => starts.started.length > 0, 'a button started a sign-in');
      expect(starts.started).to.deep.equal([first]);
    } finally {
      starts.restore();
    }
    expect(part(second!, 'message')?.textContent ?? '').not.to.equal(CONFIG_TEXT);
  });
});

describe('a session from another provider or app', () => {
  let env: TestEnv;
  let hostile: { url: string; clientId: string };
  const stored = (issuer: string, clientId: string) => JSON.stringify({ ...aShopper('other'), issuer, clientId });
  before(async () => {
    env = (await (await fetch('/__env.json')).json()) as TestEnv;
    hostile = await hostileEnv();
  });
  beforeEach(() => clearPage());
  afterEach(() => {
    clearPage();
    for (const meta of document.head.querySelectorAll('meta[name^="loyalty-"]')) meta.remove();
  });

  it('records the provider and app it signed in with', async () => {
    await setScenario('valid');
    const event = await signInOnce(await hostileButton());
    expect(event.type).to.equal('loyalty-signin');
    expect(session.user).to.deep.include({ issuer: hostile.url, clientId: hostile.clientId });
  });

  it('is not restored on a page whose head pins another sign-in', () => {
    pin('loyalty-authority', `${env.connectUrl}/`);
    pin('loyalty-client-id', env.clientId);
    sessionStorage.setItem(USER_STORAGE_KEY, stored(hostile.url, hostile.clientId));
    const page = new PageSession();
    page.useStorage('session');
    expect(page.user).to.equal(null);
    sessionStorage.setItem(USER_STORAGE_KEY, stored(env.connectUrl, env.clientId));
    const pinnedPage = new PageSession();
    pinnedPage.useStorage('session');
    expect(pinnedPage.user?.issuer, 'the pinned sign-in’s own session is restored').to.equal(env.connectUrl);
  });

  it('is signed out by the page’s own button when nothing is pinned', async () => {
    session.set({ ...aShopper('other'), issuer: hostile.url, clientId: hostile.clientId }, 'signin');
    const block = placeBlock(
      `<loyalty-signin-button authority="${env.connectUrl}" client-id="${env.clientId}"></loyalty-signin-button>`,
    );
    await inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button').updateComplete;
    expect(session.user).to.equal(null);
  });
});
