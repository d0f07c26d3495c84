/**
 * One coupon per shopper and campaign over a session's life: across the guest-to-member step and
 * across the tabs of the site, against the real proxy and sandbox behind /api/marketing.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session } from '../../../src/connect/session.ts';
import { clientFor } from '../../../src/marketing/client.ts';
import { isClaiming, SAME_KEY_TRIES } from '../../../src/marketing/coupon-claims.ts';
import { clearStoredClaims, minted, recordFetches, testShopper } from './helpers.ts';
import { part, showsOneOf } from '../parts.ts';

type ClaimsModule = typeof import('../../../src/marketing/coupon-claims.ts');

const LATTE = 'camp-harbor-morning-latte';
const member = testShopper('member');
const ready = (el: CouponClaim) => showsOneOf(el, ['claim-button', 'code', 'error', 'signin-button']);

async function shownCode(el: CouponClaim): Promise<string> {
  await waitUntil(() => part(el, 'code') ?? part(el, 'error'), 'no code', { timeout: 8000 });
  const code = part(el, 'code');
  if (!code) throw new Error(`claim failed: ${part(el, 'error')!.textContent}`);
  return code.textContent!;
}

let tabs = 0;
/** Another tab's copy of the claims module: its own claims in flight, the site's storage and locks. */
async function anotherTab(): Promise<ClaimsModule> {
  return (await import(`../../../src/marketing/coupon-claims.ts?tab=${++tabs}`)) as ClaimsModule;
}

describe('coupons over a session', () => {
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => {
    clearStoredClaims();
    fetches = recordFetches();
  });
  afterEach(() => {
    session.set(null, 'expired');
    fetches.restore();
    clearStoredClaims();
  });

  it('a guest who signs in keeps the coupon they were given, and no second one is minted', async () => {
    const before = await minted();
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    part(el, 'claim-button')!.click();
    const guestCode = await shownCode(el);

    session.set(member, 'signin');
    await el.updateComplete;
    expect(part(el, 'code')?.textContent, 'the guest’s code, now the member’s').to.equal(guestCode);
    await el.claim();
    expect(fetches.of('requestCoupon')).to.have.length(1);
    expect(await minted()).to.equal(before + 1);
    const keys = Object.keys(localStorage).filter((key) => key.startsWith('loyalty-widgets:coupon:'));
    expect(keys).to.have.length(1);
    expect(keys[0]).to.contain(member.sub);
  });

  it('a guest claim whose answer was lost is finished after sign-in with the guest’s key, as the same coupon', async () => {
    const before = await minted();
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    // Every try of the claim (each with the same key, a second apart) loses its answer.
    fetches.loseResponses(SAME_KEY_TRIES);
    part(el, 'claim-button')!.click();
    await waitUntil(() => part(el, 'retry-button'), 'the lost answers show as a failure', {
      timeout: (SAME_KEY_TRIES + 5) * 1000,
    });
    expect(await minted()).to.equal(before + 1);

    session.set(member, 'signin');
    await el.updateComplete;
    await el.claim();
    const code = await shownCode(el);
    const sent = fetches.of('requestCoupon');
    expect(sent).to.have.length(SAME_KEY_TRIES + 1);
    const [guest, member_] = [sent[0], sent.at(-1)];
    expect(member_!.headers.get('idempotency-key'), 'the guest’s key').to.equal(guest!.headers.get('idempotency-key'));
    expect(await minted(), 'the proxy replayed the guest’s coupon').to.equal(before + 1);
    expect(code).to.match(/^SAVE-/);
  });

  it('two tabs claiming at once take turns under one lock: one key, one request, one coupon', async () => {
    const before = await minted();
    const [tabA, tabB] = [await anotherTab(), await anotherTab()];
    const client = clientFor('/api/marketing');
    const [a, b] = await Promise.all([
      tabA.claimCoupon(client, { campaignId: LATTE }),
      tabB.claimCoupon(client, { campaignId: LATTE }),
    ]);
    expect(a.code).to.equal(b.code);
    expect(fetches.of('requestCoupon')).to.have.length(1);
    expect(await minted()).to.equal(before + 1);
  });

  it('makes and uses a claim’s key only while holding the site-wide lock for that coupon', async () => {
    const tab = await anotherTab();
    const client = clientFor('/api/marketing');
    // Another tab holds the lock for this coupon (its claim is running).
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const lockName = `loyalty-widgets:coupon:${[client.endpoint, 'anonymous', LATTE].map(encodeURIComponent).join(':')}`;
    void navigator.locks.request(lockName, () => {
      held();
      return holding;
    });
    await isHeld;
    const claim = tab.claimCoupon(client, { campaignId: LATTE });
    await waitUntil(async () => (await navigator.locks.query()).pending?.some((lock) => lock.name === lockName));
    expect(fetches.of('requestCoupon'), 'nothing sent while the other tab holds the lock').to.have.length(0);
    expect(
      Object.keys(localStorage).some((key) => key.startsWith('loyalty-widgets:claim-key:')),
      'no key made meanwhile',
    ).to.equal(false);
    release();
    expect((await claim).code).to.match(/^SAVE-/);
    expect(fetches.of('requestCoupon')).to.have.length(1);
  });

  it('a claim that answers after an explicit sign-out keeps nothing for the next person', async () => {
    session.set(member, 'signin');
    const tab = await anotherTab();
    const claim = tab.claimCoupon(clientFor('/api/marketing'), { campaignId: LATTE, shopper: member.sub });
    session.set(null, 'signout');
    await claim.catch(() => undefined);
    const kept = Object.keys(localStorage).filter((key) => key.startsWith('loyalty-widgets:'));
    expect(kept).to.deep.equal(['loyalty-widgets:signed-out']);
  });

  it('an answer that arrives after sign-out reports nothing of the previous shopper', async () => {
    session.set(member, 'signin');
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await ready(el);
    const heard: string[] = [];
    for (const type of ['coupon-claimed', 'coupon-claim-error'])
      el.addEventListener(type, (event) => heard.push(`${type} ${JSON.stringify((event as CustomEvent).detail)}`));
    // The proxy's real answer reaches the page only once the shopper has signed out.
    const original = window.fetch;
    let answered: string | undefined;
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      if (String(init?.body).includes('requestCoupon')) {
        answered = ((await response.clone().json()) as { data: { requestCoupon: { coupon: { code: string } } } }).data
          .requestCoupon.coupon.code;
        session.set(null, 'signout');
      }
      return response;
    };
    try {
      part(el, 'claim-button')!.click();
      await waitUntil(() => answered && !isClaiming(LATTE, member.sub), 'the answer, after the sign-out', {
        timeout: 8000,
      });
      await el.updateComplete;
    } finally {
      window.fetch = original;
    }
    expect(answered, 'the proxy minted a coupon').to.match(/^SAVE-/);
    expect(heard, 'no event of the previous session').to.deep.equal([]);
    expect(el.shadowRoot!.textContent).to.not.contain(answered);
    expect(part(el, 'error')).to.equal(null);
  });
});
