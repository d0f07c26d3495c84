import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session } from '../../../src/connect/session.ts';
import {
  answerClaimsFrom,
  claimDirectly,
  clearStoredClaims,
  minted,
  recordFetches,
  stubFetch,
  testEnv,
  testShopper,
} from './helpers.ts';
import { part, showsOneOf } from '../parts.ts';

const LATTE = 'camp-harbor-morning-latte';

const ready = (el: CouponClaim) => showsOneOf(el, ['claim-button', 'code', 'message', 'error', 'signin-button']);

async function codeOf(el: CouponClaim): Promise<string> {
  await el.updateComplete;
  await waitUntil(() => part(el, 'code') ?? part(el, 'error'), 'no code', { timeout: 8000 });
  const code = part(el, 'code');
  if (!code) throw new Error(`claim failed: ${part(el, 'error')!.textContent}`);
  return code.textContent!;
}

const shopper = testShopper(1);

describe('<coupon-claim>', () => {
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => {
    clearStoredClaims();
    fetches = recordFetches();
  });
  afterEach(() => {
    fetches.restore();
    session.set(null, 'signout');
  });

  it('a double click mints exactly one coupon, and the code comes back after a reload instead of a new one', async () => {
    const before = await minted();
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} currency="EUR"></coupon-claim>`);
    await ready(el);
    expect(part(el, 'title')!.textContent).to.equal('Morning latte for less');
    expect(part(el, 'price')!.textContent).to.equal('€2.50');
    const button = part(el, 'claim-button')!;
    const claimed = oneEvent(el, 'coupon-claimed');
    button.click();
    button.click();
    await el.updateComplete;
    expect(part(el, 'claim-button')!.getAttribute('aria-disabled')).to.equal('true');
    expect(part(el, 'claim-button')!.textContent!.trim()).to.equal('Getting your coupon…');
    const { detail } = await claimed;
    const code = await codeOf(el);
    expect(detail).to.deep.equal({ campaignId: LATTE, code });
    expect(await minted()).to.equal(before + 1);
    expect(fetches.of('requestCoupon')).to.have.length(1);
    expect(fetches.of('requestCoupon')[0]!.headers.get('idempotency-key')).to.match(/^[\x21-\x7e]{16,}$/);
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal(`Your coupon is ready: ${code}`);

    // As after a reload: a new element for the same campaign shows the kept code and mints nothing.
    el.remove();
    const again = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(again);
    expect(await codeOf(again)).to.equal(code);
    expect(part(again, 'claim-button')).to.equal(null);
    expect(await minted()).to.equal(before + 1);
    expect(fetches.of('requestCoupon')).to.have.length(1);
  });

  it('a lost response is tried again at once with the same Idempotency-Key: the shopper gets the coupon it minted', async () => {
    const before = await minted();
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    fetches.loseResponses(1);
    let failed = false;
    el.addEventListener('coupon-claim-error', () => (failed = true));
    part(el, 'claim-button')!.click();
    const code = await codeOf(el);
    expect(failed, 'no error shown for a response that was only lost').to.equal(false);
    const [first, retry] = fetches.of('requestCoupon');
    expect(retry!.headers.get('idempotency-key')).to.equal(first!.headers.get('idempotency-key'));
    expect(await minted(), 'the retry minted nothing more').to.equal(before + 1);
    expect(code).to.be.a('string').and.not.equal('');
  });

  it('after the proxy kept answering 504 through every try with one key, the shopper’s retry takes a new key and gets a code', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    // The real proxy in front of a Marketing API that never answers a mint: 504 while it waits, then
    // the timeout it recorded for the key.
    const { refusingProxyPaths } = await testEnv();
    const before = await minted();
    const stub = answerClaimsFrom(refusingProxyPaths.mintNeverAnswered);
    // Each try's key, and when it was sent.
    const keys: (string | null)[] = [];
    const sentAt: number[] = [];
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (String(init?.body).includes('"requestCoupon"')) {
        keys.push(new Headers(init?.headers).get('idempotency-key'));
        sentAt.push(performance.now());
      }
      return original(input, init);
    };
    try {
      const failed = oneEvent(el, 'coupon-claim-error');
      part(el, 'claim-button')!.click();
      expect((await failed).detail.code).to.equal('upstream_timeout');
    } finally {
      window.fetch = original;
      stub.restore();
    }
    await el.updateComplete;
    expect(part(el, 'error')!.textContent).to.contain('not answering right now');
    expect(keys, 'five tries, one key').to.have.length(5);
    expect(new Set(keys).size).to.equal(1);
    const answers = await Promise.all(
      stub.answers.map(async (answer) => ({
        status: answer.status,
        code: ((await answer.json()) as { error: { code: string } }).error.code,
        retryAfter: answer.headers.get('retry-after'),
        replayed: answer.headers.get('idempotent-replayed'),
      })),
    );
    expect(answers.map(({ status, code }) => `${status} ${code}`)).to.deep.equal(Array(5).fill('504 upstream_timeout'));
    expect(answers[0]!.retryAfter, 'the proxy still waiting says when to ask again').to.equal('1');
    expect(answers.at(-1)!.replayed, 'in the end, the timeout recorded for the key').to.equal('true');
    // Each try waited as long as the answer before it asked (1 s when it did not say).
    for (let i = 1; i < sentAt.length; i++) {
      const asked = Number(answers[i - 1]!.retryAfter ?? 1);
      expect(sentAt[i]! - sentAt[i - 1]!, `try ${i + 1}`).to.be.at.least(asked * 1000 - 20);
    }
    expect(await minted(), 'nothing minted upstream').to.equal(before);
    part(el, 'retry-button')!.click();
    const code = await codeOf(el);
    expect(code).to.be.a('string').and.not.equal('');
    expect(await minted()).to.equal(before + 1);
    const [retry] = fetches.of('requestCoupon');
    expect(
      retry!.headers.get('idempotency-key'),
      'a replay of the recorded timeout would never give a code',
    ).not.to.equal(keys[0]);
  });

  it('two elements for one campaign share one claim and show the same code', async () => {
    const before = await minted();
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><coupon-claim campaign-id="camp-peak-rental"></coupon-claim><coupon-claim campaign-id="camp-peak-rental"></coupon-claim></div>`,
    );
    const [a, b] = [...wrapper.querySelectorAll('coupon-claim')] as CouponClaim[];
    await ready(a!);
    await ready(b!);
    expect(fetches.of('campaign'), 'one request for the shared campaign').to.have.length(1);
    part(a!, 'claim-button')!.click();
    part(b!, 'claim-button')!.click();
    const [codeA, codeB] = [await codeOf(a!), await codeOf(b!)];
    expect(codeA).to.equal(codeB);
    expect(fetches.of('requestCoupon')).to.have.length(1);
    expect(await minted()).to.equal(before + 1);
  });

  it('with allow-multiple, "Get another coupon" mints a new one under a fresh key', async () => {
    const before = await minted();
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} allow-multiple></coupon-claim>`);
    await ready(el);
    part(el, 'claim-button')!.click();
    const first = await codeOf(el);
    const another = oneEvent(el, 'coupon-claimed');
    part(el, 'another-button')!.click();
    const second = (await another).detail.code as string;
    await el.updateComplete;
    expect(second).to.not.equal(first);
    expect(part(el, 'code')!.textContent).to.equal(second);
    const [one, two] = fetches.of('requestCoupon');
    expect(one!.headers.get('idempotency-key')).to.not.equal(two!.headers.get('idempotency-key'));
    expect(await minted()).to.equal(before + 2);
  });

  it('ignores a corrupt or foreign stored entry instead of showing it', async () => {
    const slot = `loyalty-widgets:coupon:${encodeURIComponent(`${location.origin}/api/marketing`)}:anonymous:${LATTE}`;
    localStorage.setItem(slot, '{"code":{"html":"<b>x</b>"}');
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    expect(part(el, 'code')).to.equal(null);
    expect(part(el, 'claim-button')).to.not.equal(null);
    localStorage.setItem(slot, JSON.stringify({ code: 'KEPT-1234', campaignId: LATTE, claimedAt: 1 }));
    const kept = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(kept);
    expect(part(kept, 'code')!.textContent).to.equal('KEPT-1234');
  });

  it('formats a numeric price in the shopper’s language and keeps a text price as given', async () => {
    const numeric = await fixture<CouponClaim>(
      html`<coupon-claim lang="fr" campaign-id=${LATTE} currency="EUR"></coupon-claim>`,
    );
    await ready(numeric);
    expect(part(numeric, 'price')!.textContent).to.match(/^2,50\s€$/);
    expect(part(numeric, 'claim-button')!.textContent!.trim()).to.equal('Obtenir le coupon');
    const text = await fixture<CouponClaim>(
      html`<coupon-claim campaign-id="camp-harbor-free-pastry" currency="EUR"></coupon-claim>`,
    );
    await ready(text);
    expect(part(text, 'price')!.textContent).to.equal('Free with any order');
    const unknownCurrency = await fixture<CouponClaim>(
      html`<coupon-claim campaign-id=${LATTE} currency="not-a-currency"></coupon-claim>`,
    );
    await ready(unknownCurrency);
    expect(part(unknownCurrency, 'price')!.textContent).to.equal('2.50');
  });

  it('says a campaign has no coupon instead of showing a button', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id="camp-harbor-tenth-cup"></coupon-claim>`);
    await ready(el);
    expect(part(el, 'message')!.textContent).to.equal('This campaign has no coupon to claim.');
    expect(el.shadowRoot!.querySelector('button')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('explains a missing or unknown campaign, with a retry', async () => {
    const missing = await fixture<CouponClaim>(html`<coupon-claim></coupon-claim>`);
    await ready(missing);
    expect(part(missing, 'error')!.textContent).to.contain('not set up correctly');
    const unknown = await fixture<CouponClaim>(
      html`<coupon-claim campaign-id="no-such-campaign" lang="fr"></coupon-claim>`,
    );
    await ready(unknown);
    expect(part(unknown, 'error')!.textContent).to.contain('Cette offre est introuvable');
    expect(part(unknown, 'retry-button')!.textContent).to.equal('Réessayer');
  });

  it('tells when to try again after a 429', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    // The real proxy, at one coupon per shopper per 30 s, after this shopper's one coupon.
    const { refusingProxyPaths } = await testEnv();
    expect(await claimDirectly(refusingProxyPaths.oneCouponPer30s, 'camp-peak-rental')).to.be.oneOf([200, 429]);
    const stub = answerClaimsFrom(refusingProxyPaths.oneCouponPer30s);
    try {
      const failed = oneEvent(el, 'coupon-claim-error');
      part(el, 'claim-button')!.click();
      const { detail } = await failed;
      const [answer] = stub.answers;
      expect(answer!.status).to.equal(429);
      const wait = Number(answer!.headers.get('retry-after'));
      expect(wait).to.be.within(1, 30);
      expect(detail.code).to.equal('rate_limited');
      expect(detail.message).to.equal(
        `Too many requests. Please try again in ${wait} ${wait === 1 ? 'second' : 'seconds'}.`,
      );
      await el.updateComplete;
      expect(part(el, 'error')!.textContent).to.contain(`in ${wait} second`);
      stub.restore();
      el.campaignId = 'camp-peak-rental';
      await el.updateComplete;
      await ready(el);
      expect(part(el, 'error'), 'another campaign starts afresh').to.equal(null);
      expect(part(el, 'title')!.textContent).to.equal('Weekend tent rental');
    } finally {
      stub.restore();
    }
  });

  it('tells a long wait in minutes or hours, also under a CMS-style lang="en_US"', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} lang="en_US"></coupon-claim>`);
    await ready(el);
    // The shopper points at the coupon first (its claim's code loads then), so the hour below is not
    // shortened by the wait for that code.
    el.dispatchEvent(new PointerEvent('pointerenter'));
    await import('../../../src/elements/coupon-claim/claim-request.ts');
    // The real proxy, at one coupon per shopper per hour, after this shopper's one coupon.
    const { refusingProxyPaths } = await testEnv();
    expect(await claimDirectly(refusingProxyPaths.oneCouponPerHour, 'camp-peak-rental')).to.be.oneOf([200, 429]);
    const stub = answerClaimsFrom(refusingProxyPaths.oneCouponPerHour);
    try {
      const failed = oneEvent(el, 'coupon-claim-error');
      part(el, 'claim-button')!.click();
      expect((await failed).detail.message).to.equal('Too many requests. Please try again in 1 hour.');
      expect(Number(stub.answers[0]!.headers.get('retry-after'))).to.be.within(3500, 3600);
      await el.updateComplete;
      expect(part(el, 'retry-button')).not.to.equal(null);
    } finally {
      stub.restore();
    }
  });

  it('copies the code, or says how to copy it when the clipboard is not available', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    part(el, 'claim-button')!.click();
    const code = await codeOf(el);
    const clipboard = navigator.clipboard;
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void writes.push(text) },
    });
    try {
      part(el, 'copy-button')!.click();
      await waitUntil(() => writes.length === 1);
      expect(writes).to.deep.equal([code]);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal('Coupon code copied.');
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
      part(el, 'copy-button')!.click();
      await waitUntil(() => part(el, 'message'));
      expect(part(el, 'message')!.textContent).to.contain('select the code and copy it');
      expect(getSelection()!.toString()).to.equal(code);
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    }
  });

  it('claims from the keyboard and moves focus to the copy button', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    part(el, 'claim-button')!.focus();
    await sendKeys({ press: 'Enter' });
    await codeOf(el);
    await waitUntil(() => el.shadowRoot!.activeElement === part(el, 'copy-button'), 'focus moved to the copy button');
    await expect(el).to.be.accessible();
  });

  it('shows the received code in the confirmation colour, --loyalty-color-success', async () => {
    const el = await fixture<CouponClaim>(
      html`<coupon-claim campaign-id=${LATTE} style="--loyalty-color-success: rgb(1, 2, 3)"></coupon-claim>`,
    );
    await ready(el);
    part(el, 'claim-button')!.click();
    await codeOf(el);
    expect(getComputedStyle(part(el, 'code')!).borderTopColor).to.equal('rgb(1, 2, 3)');
  });

  it('offers sign-in instead of a retry when the proxy wants a signed-in shopper, then sends the tokens it asked for', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    // Unsigned claims go to the real proxy with requireSignin (401 signin_required); signed-in ones to
    // the default proxy, which takes the stand-in tokens of this test's shopper.
    const { refusingProxyPaths } = await testEnv();
    const recorded = window.fetch;
    const refusals: Response[] = [];
    window.fetch = async (input, init) => {
      if (new Headers(init?.headers).has('authorization')) return recorded(input, init);
      const refusal = await recorded(refusingProxyPaths.signinRequired, init);
      refusals.push(refusal.clone());
      return refusal;
    };
    const stop = session.registerSignInStarter(() => {
      session.set(shopper, 'signin');
      return true;
    });
    try {
      const failed = oneEvent(el, 'coupon-claim-error');
      part(el, 'claim-button')!.click();
      expect((await failed).detail.code).to.equal('signin_required');
      expect(refusals.map((refusal) => refusal.status)).to.deep.equal([401]);
      await el.updateComplete;
      expect(part(el, 'message')!.textContent).to.equal('Please sign in first.');
      expect(part(el, 'retry-button')).to.equal(null);
      await expect(el).to.be.accessible();
      part(el, 'signin-button')!.click();
      await codeOf(el);
      const [signedIn] = fetches.of('requestCoupon');
      expect(signedIn!.headers.get('authorization')).to.equal('Bearer access-token-1');
      expect(signedIn!.headers.get('x-loyalty-id-token')).to.equal('id-token-1');
    } finally {
      window.fetch = recorded;
      stop();
    }
  });

  describe('require-signin', () => {
    it('asks the shopper to sign in, and says where when the page has no sign-in button', async () => {
      const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} require-signin></coupon-claim>`);
      await ready(el);
      expect(part(el, 'claim-button')).to.equal(null);
      const button = part(el, 'signin-button')!;
      expect(button.textContent).to.equal('Sign in to get this coupon');
      await expect(el).to.be.accessible();
      button.click();
      await el.updateComplete;
      expect(part(el, 'message')!.textContent).to.contain('sign-in button');
      expect(fetches.of('requestCoupon')).to.have.length(0);
    });

    it('signs in through the page, then claims with the access token, and keeps codes per shopper', async () => {
      const stop = session.registerSignInStarter(() => {
        session.set(shopper, 'signin');
        return true;
      });
      try {
        const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} require-signin></coupon-claim>`);
        await ready(el);
        part(el, 'signin-button')!.click();
        const code = await codeOf(el);
        expect(fetches.of('requestCoupon')[0]!.headers.get('authorization')).to.equal('Bearer access-token-1');
        expect(fetches.of('requestCoupon')[0]!.headers.get('x-loyalty-id-token')).to.equal('id-token-1');
        expect(Object.keys(localStorage).some((key) => key.includes('shopper-1') && key.includes(LATTE))).to.equal(
          true,
        );
        session.set(null, 'expired');
        await el.updateComplete;
        expect(part(el, 'code'), 'signed out: not the shopper’s code').to.equal(null);
        expect(part(el, 'signin-button')).to.not.equal(null);
        session.set(shopper, 'signin');
        await el.updateComplete;
        expect(part(el, 'code')!.textContent, 'back after the session ran out').to.equal(code);
      } finally {
        stop();
      }
    });
  });

  describe('over a session’s life', () => {
    const status = (el: CouponClaim) => el.shadowRoot!.querySelector('[role="status"]')!.textContent;
    const failNetwork = () => stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    /** A sign-in-only claim on the page of a signed-in shopper. */
    async function signedInClaim(): Promise<CouponClaim> {
      session.set(shopper, 'signin');
      const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} require-signin></coupon-claim>`);
      await ready(el);
      return el;
    }

    it('shows a coupon that arrived from elsewhere ahead of an earlier error', async () => {
      const first = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
      await ready(first);
      const offline = failNetwork();
      const failed = oneEvent(first, 'coupon-claim-error');
      part(first, 'claim-button')!.click();
      await failed;
      offline.restore();
      await first.updateComplete;
      expect(part(first, 'retry-button') !== null, 'the failure is shown').to.equal(true);

      // The same coupon is claimed elsewhere (another element, or another tab through storage).
      const second = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
      await ready(second);
      part(second, 'claim-button')!.click();
      const code = await codeOf(second);
      await first.updateComplete;
      expect(part(first, 'code')?.textContent, 'the kept coupon, not the old error').to.equal(code);
      expect(part(first, 'error') === null, 'no error').to.equal(true);
    });

    it('after the session ran out, offers sign-in instead of a dead "Try again", and the claim resumes after it', async () => {
      const stop = session.registerSignInStarter(() => {
        session.set({ ...shopper, accessToken: 'access-token-2' }, 'signin');
        return true;
      });
      try {
        const el = await signedInClaim();
        const offline = failNetwork();
        const failed = oneEvent(el, 'coupon-claim-error');
        part(el, 'claim-button')!.click();
        await failed;
        offline.restore();
        session.set(null, 'expired');
        await el.updateComplete;
        expect(part(el, 'retry-button') === null, 'no retry that cannot work').to.equal(true);
        part(el, 'signin-button')!.click();
        await codeOf(el);
        const [claim] = fetches.of('requestCoupon').slice(-1);
        expect(claim!.headers.get('authorization')).to.equal('Bearer access-token-2');

        // A claim started through claim() while signed out asks for the sign-in as well.
        session.set(null, 'expired');
        clearStoredClaims();
        await el.updateComplete;
        await el.claim();
        await codeOf(el);
      } finally {
        stop();
      }
    });

    it('a 401 for the tokens ends the session everywhere, and the claim resumes after signing in again', async () => {
      const el = await signedInClaim();
      const refused = stubFetch(
        () =>
          new Response(JSON.stringify({ error: { code: 'invalid_token', message: 'The access token was refused.' } }), {
            status: 401,
          }),
      );
      const changes: string[] = [];
      const stopWatching = session.subscribe((user, reason) => changes.push(user ? reason : `out:${reason}`));
      const failed = oneEvent(el, 'coupon-claim-error');
      part(el, 'claim-button')!.click();
      await failed;
      refused.restore();
      stopWatching();
      expect(session.user, 'the refused tokens are dropped').to.equal(null);
      expect(changes).to.deep.equal(['out:expired']);
      await el.updateComplete;
      expect(part(el, 'message')!.textContent).to.not.equal('');
      const stop = session.registerSignInStarter(() => {
        session.set({ ...shopper, accessToken: 'access-token-3' }, 'signin');
        return true;
      });
      try {
        part(el, 'signin-button')!.click();
        await codeOf(el);
        expect(fetches.of('requestCoupon').slice(-1)[0]!.headers.get('authorization')).to.equal(
          'Bearer access-token-3',
        );
      } finally {
        stop();
      }
    });

    it('leaves nothing of the shopper after an explicit sign-out: no code, no key, no announcement', async () => {
      const el = await signedInClaim();
      part(el, 'claim-button')!.click();
      const code = await codeOf(el);
      expect(status(el)).to.equal(`Your coupon is ready: ${code}`);
      session.set(null, 'signout');
      await el.updateComplete;
      expect(status(el), 'the live region is silent').to.equal('');
      expect(el.shadowRoot!.textContent).to.not.contain(code);
      const kept = Object.keys(localStorage).filter((key) => key.startsWith('loyalty-widgets:'));
      expect(kept).to.deep.equal(['loyalty-widgets:signed-out']);

      // The next shopper signs in: the previous one's coupon is not theirs to see.
      session.set({ ...shopper, sub: 'shopper-2', accessToken: 'access-token-4' }, 'signin');
      await el.updateComplete;
      expect(part(el, 'code') === null, 'no code').to.equal(true);
      expect(status(el)).to.equal('');
    });
  });
});
