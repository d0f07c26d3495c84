/**
 * What the head pins, the body cannot change. With the merchant's sign-in metas in the head, a block's
 * sign-in button or mount naming the head's own provider and app, but its own `redirect-uri` or
 * `storage`, shows the set-up error naming both, and the session stays where the head keeps it. A mount
 * gives no sign-in settings at all: a page whose only sign-in would come from an editor's mount has none,
 * and says to put the settings in the head. Settings pasted into the body are named in the console.
 */
import { expect, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/loyalty-signin-button/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import type { LoyaltySigninButton } from '../../../src/elements/loyalty-signin-button/index.ts';
import { session, USER_STORAGE_KEY } from '../../../src/connect/session.ts';
import { merchantSetting } from '../../../src/shared/merchant.ts';
import type { TestEnv } from '../../support/services.ts';
import { part, showsOneOf } from '../parts.ts';
import { captureWarnings } from '../setup/helpers.ts';
import { hostileEnv, hostileStats, setScenario } from '../signin/helpers.ts';
import { aShopper, clearPage, inBlock, placeBlock } from './helpers.ts';

const LATTE = 'camp-harbor-morning-latte';
const CONFIG_TEXT = 'Sign-in is not set up correctly on this site.';

function pin(name: string, content: string): void {
  document.head.append(Object.assign(document.createElement('meta'), { name, content }));
}

/**
 * The error a button reports when pressed, with its message, and the windows it tried to open meanwhile
 * (none opens: a popup-only button without a window fails with popup_blocked instead).
 */
async function pressedError(button: LoyaltySigninButton): Promise<{ code: string; message: string; opened: number }> {
  const error = new Promise<{ code: string; message: string }>((resolve) =>
    button.addEventListener('loyalty-signin-error', (event) => resolve((event as CustomEvent).detail), { once: true }),
  );
  let opened = 0;
  const open = window.open;
  window.open = () => (opened++, null);
  try {
    button.signIn();
    return { ...(await error), opened };
  } finally {
    window.open = open;
  }
}

/** The sign-in button a mount became. */
async function mounted(block: HTMLElement): Promise<LoyaltySigninButton> {
  await waitUntil(() => block.querySelector('loyalty-signin-button'), 'the mount became its element', {
    timeout: 8000,
  });
  const button = inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button');
  await button.updateComplete;
  return button;
}

// First: each setting is looked for outside the head once per page, when first read.
describe('settings pasted into the body', () => {
  let warnings: ReturnType<typeof captureWarnings>;
  beforeEach(() => (warnings = captureWarnings()));
  afterEach(() => {
    warnings.restore();
    clearPage();
  });

  it('are ignored, and the console says which and that they go in the head', () => {
    placeBlock(
      `<meta name="loyalty-endpoint" content="/elsewhere"><meta name="loyalty-redirect-uri" content="/elsewhere.html">`,
    );
    expect(merchantSetting('loyalty-endpoint')).to.equal(undefined);
    expect(merchantSetting('loyalty-redirect-uri')).to.equal(undefined);
    const said = warnings.messages.join('\n');
    expect(said).to.contain('<meta name="loyalty-endpoint"> outside the <head> is ignored; put it in the <head>.');
    expect(said).to.contain('<meta name="loyalty-redirect-uri"> outside the <head> is ignored');
  });
});

describe('what the head pins', () => {
  let env: TestEnv;
  let callback: string;
  let warnings: ReturnType<typeof captureWarnings>;
  before(async () => {
    env = (await (await fetch('/__env.json')).json()) as TestEnv;
    callback = `${location.origin}/loyalty/callback.html`;
    warnings = captureWarnings();
    await import('../../../src/index.ts');
  });
  after(() => warnings.restore());
  beforeEach(() => clearPage());
  afterEach(() => {
    clearPage();
    for (const meta of document.querySelectorAll('meta[name^="loyalty-"]')) meta.remove();
  });

  // First on this page: the first button decides where the page's session is kept.
  it('a block’s button with its own storage: the session stays where the head keeps it, and the button names both', async () => {
    pin('loyalty-authority', env.connectUrl);
    pin('loyalty-client-id', env.clientId);
    const block = placeBlock(
      `<loyalty-signin-button mode="popup-only" authority="${env.connectUrl}" client-id="${env.clientId}" storage="local"></loyalty-signin-button>`,
    );
    const theirs = inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button');
    await theirs.updateComplete;
    expect(session.storage).to.equal('session');
    session.set(aShopper('pinned'), 'signin');
    expect(localStorage.getItem(USER_STORAGE_KEY), 'nothing kept in localStorage').to.equal(null);
    expect(sessionStorage.getItem(USER_STORAGE_KEY)).to.contain('shopper-pinned');
    session.set(null, 'signout');
    expect(part(theirs, 'message')?.textContent).to.equal(CONFIG_TEXT);
    const { code, message } = await pressedError(theirs);
    expect(code).to.equal('config');
    expect(message).to.contain('storage="local"').and.contain('"session"');
  });

  it('a block’s button naming the head’s provider and app with its own redirect-uri: the set-up error, naming both', async () => {
    pin('loyalty-authority', env.connectUrl);
    pin('loyalty-client-id', env.clientId);
    pin('loyalty-redirect-uri', callback);
    const block = placeBlock(
      `<loyalty-signin-button mode="popup-only" authority="${env.connectUrl}" client-id="${env.clientId}" redirect-uri="/another-page.html"></loyalty-signin-button>`,
    );
    const theirs = inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button');
    await theirs.updateComplete;
    expect(part(theirs, 'message')?.textContent).to.equal(CONFIG_TEXT);
    const { code, message, opened } = await pressedError(theirs);
    expect(code).to.equal('config');
    expect(message).to.contain('redirect-uri="/another-page.html"').and.contain(callback);
    expect(opened, 'no sign-in window opened').to.equal(0);
  });

  it('the same redirect URI as the head’s is no override: the button is the page’s sign-in', async () => {
    pin('loyalty-authority', env.connectUrl);
    pin('loyalty-client-id', env.clientId);
    pin('loyalty-redirect-uri', callback);
    const block = placeBlock(
      `<loyalty-signin-button redirect-uri="${callback}" storage="session"></loyalty-signin-button>`,
    );
    const button = inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button');
    await button.updateComplete;
    expect(part(button, 'message')?.hidden ?? true, 'no set-up error').to.equal(true);
    expect(part(button, 'button')?.getAttribute('aria-disabled')).to.equal(null);
  });

  it('with only the provider pinned, a block’s redirect-uri cannot replace the default', async () => {
    pin('loyalty-authority', env.connectUrl);
    const block = placeBlock(
      `<loyalty-signin-button mode="popup-only" client-id="${env.clientId}" redirect-uri="/another-page.html"></loyalty-signin-button>`,
    );
    const theirs = inBlock<LoyaltySigninButton>(block, 'loyalty-signin-button');
    await theirs.updateComplete;
    const { code, message } = await pressedError(theirs);
    expect(code).to.equal('config');
    expect(message)
      .to.contain('redirect-uri="/another-page.html"')
      .and.contain(`${location.origin}${location.pathname}`);
  });

  it('a mount naming its own redirect-uri and storage: they are left out, and the head’s are used', async () => {
    pin('loyalty-authority', env.connectUrl);
    pin('loyalty-client-id', env.clientId);
    pin('loyalty-redirect-uri', callback);
    const block = placeBlock(
      `<div data-loyalty-widget="loyalty-signin-button" data-authority="${env.connectUrl}" data-client-id="${env.clientId}" data-redirect-uri="/another-page.html" data-storage="local"></div>`,
    );
    const button = await mounted(block);
    for (const attribute of ['authority', 'client-id', 'redirect-uri', 'storage'])
      expect(button.hasAttribute(attribute), attribute).to.equal(false);
    expect(part(button, 'button')?.getAttribute('aria-disabled'), 'the head’s sign-in').to.equal(null);
    expect(warnings.messages.join('\n')).to.contain('data-redirect-uri').and.contain('in the head');
  });
});

describe('a page whose only sign-in settings come from a mount', () => {
  let warnings: ReturnType<typeof captureWarnings>;
  let hostile: { url: string; clientId: string };
  before(async () => {
    hostile = await hostileEnv();
    warnings = captureWarnings();
    await import('../../../src/index.ts');
  });
  after(() => warnings.restore());
  beforeEach(async () => {
    clearPage();
    await setScenario('valid');
  });
  afterEach(() => clearPage());

  it('has no sign-in: the mount shows the set-up error, says to use the head, and the coupon’s “sign in” opens nothing', async () => {
    const block = placeBlock(
      `<div data-loyalty-widget="loyalty-signin-button" data-authority="${hostile.url}" data-client-id="${hostile.clientId}"></div>
       <coupon-claim campaign-id="${LATTE}" require-signin></coupon-claim>`,
    );
    const button = await mounted(block);
    const coupon = inBlock<CouponClaim>(block, 'coupon-claim');
    await showsOneOf(coupon, ['signin-button']);
    expect(part(button, 'message')?.textContent).to.equal(CONFIG_TEXT);
    expect(warnings.messages.join('\n')).to.contain('<meta name="loyalty-authority"').and.contain('in the head');
    const opened: unknown[] = [];
    const open = window.open;
    window.open = (...args: Parameters<typeof window.open>) => (opened.push(args), null);
    try {
      part(coupon, 'signin-button')!.click();
      await coupon.updateComplete;
    } finally {
      window.open = open;
    }
    expect(opened, 'no sign-in window').to.deep.equal([]);
    expect((await hostileStats()).authRequests).to.deep.equal([]);
  });
});
