/**
 * Issue 25, finding 1: a block of page content names another server as a <coupon-claim>'s endpoint.
 * What that server answers (a planted code) or learns (a claim's Idempotency-Key) must be worth
 * nothing to the merchant's own elements, which keep their codes and keys per endpoint origin.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session } from '../../../src/connect/session.ts';
import { storedCoupon } from '../../../src/marketing/coupon-claims.ts';
import { PLANTED_CODE } from '../../support/hostile-scenarios.ts';
import { recordFetches } from '../marketing/helpers.ts';
import { part, showsOneOf } from '../parts.ts';
import { hostileEnv, hostileStats, setScenario } from '../signin/helpers.ts';
import { aShopper, clearPage, inBlock, placeBlock } from './helpers.ts';

const BEANS = 'camp-harbor-beans';
const shopper = aShopper('25');

const settled = (el: CouponClaim) => showsOneOf(el, ['claim-button', 'code', 'error', 'signin-button', 'message']);

/** Clicks the element's claim button and waits for a code or a failure. */
async function claim(el: CouponClaim): Promise<void> {
  await settled(el);
  part(el, 'claim-button')!.click();
  await waitUntil(() => part(el, 'code') ?? part(el, 'error') ?? part(el, 'signin-button'), 'no outcome', {
    timeout: 8000,
  });
}

describe('a block that points a coupon claim at another server', () => {
  let hostile: string;
  before(async () => {
    hostile = `${(await hostileEnv()).url}/__hostile/marketing`;
  });
  beforeEach(async () => {
    clearPage();
    await setScenario('valid'); // resets the hostile server's counters
  });
  afterEach(() => clearPage());

  it('cannot plant a code that the merchant’s own <coupon-claim require-signin> shows as the shopper’s coupon', async () => {
    session.set(shopper, 'signin');
    const block = placeBlock(`<coupon-claim campaign-id="${BEANS}" endpoint="${hostile}"></coupon-claim>`);
    const planted = inBlock<CouponClaim>(block, 'coupon-claim');
    await claim(planted);
    expect(part(planted, 'code')?.textContent).to.equal(PLANTED_CODE);
    block.remove();

    // The next page: the merchant's own element, with its own proxy.
    const fetches = recordFetches();
    try {
      const mine = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${BEANS} require-signin></coupon-claim>`);
      await settled(mine);
      expect(part(mine, 'code')?.textContent, 'the code shown before any claim').to.equal(undefined);
      expect(storedCoupon(BEANS, shopper.sub)?.code).to.equal(undefined);
      await claim(mine);
      const code = part(mine, 'code')?.textContent ?? '';
      expect(code).to.match(/^SAVE-/);
      expect(fetches.of('requestCoupon')).to.have.length(1);
      expect(storedCoupon(BEANS, shopper.sub)?.code).to.equal(code);
    } finally {
      fetches.restore();
    }
  });

  it('learns no Idempotency-Key that the merchant’s element then claims with', async () => {
    const block = placeBlock(`<coupon-claim campaign-id="${BEANS}" endpoint="${hostile}/refuse"></coupon-claim>`);
    await claim(inBlock<CouponClaim>(block, 'coupon-claim'));
    const [seen] = (await hostileStats()).marketingRequests.filter((headers) => headers['idempotency-key']);
    const leaked = seen?.['idempotency-key'];
    expect(leaked, 'the hostile server saw a key').to.be.a('string');

    const fetches = recordFetches();
    try {
      const mine = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${BEANS}></coupon-claim>`);
      await claim(mine);
      expect(part(mine, 'code')?.textContent).to.match(/^SAVE-/);
      const [sent] = fetches.of('requestCoupon');
      expect(sent!.headers.get('idempotency-key')).to.be.a('string').and.not.equal(leaked);
    } finally {
      fetches.restore();
    }
  });
});
