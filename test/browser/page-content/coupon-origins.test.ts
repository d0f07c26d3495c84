/**
 * A block of page content names another server as a <coupon-claim>'s endpoint, or another address of
 * the merchant's own site (an uploaded file the server answers 200 to a POST, another proxy).
 * What that answers (a planted code) or learns (a claim's Idempotency-Key) must be worth nothing to
 * the merchant's own elements, which keep their codes and keys per endpoint (its whole address), and
 * an answer that is not a proxy's (no Loyalty-Proxy header, not JSON) is refused before anything is kept.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session } from '../../../src/connect/session.ts';
import { storedCoupon } from '../../../src/marketing/coupon-claims.ts';
import { PLANTED_CODE, UPLOADED_CAMPAIGN } from '../../support/hostile-scenarios.ts';
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

  /** Every coupon code kept in this browser. */
  const keptCodes = () => Object.keys(localStorage).filter((key) => key.startsWith('loyalty-widgets:coupon:'));

  it('a same-origin file that answers a POST plants no code: its answer is refused and nothing is kept', async () => {
    const block = placeBlock(
      `<div data-loyalty-widget="coupon-claim" data-campaign-id="${UPLOADED_CAMPAIGN}" data-endpoint="/__uploads/offer.json"></div>`,
    );
    await import('../../../src/index.ts');
    await waitUntil(() => block.querySelector('coupon-claim'), 'the mount became its element', { timeout: 8000 });
    const planted = inBlock<CouponClaim>(block, 'coupon-claim');
    const refused = new Promise<string>((resolve) =>
      planted.addEventListener('coupon-claim-error', (event) => resolve((event as CustomEvent).detail.code), {
        once: true,
      }),
    );
    await claim(planted);
    expect(await refused).to.equal('invalid_response');
    expect(part(planted, 'code')).to.equal(null);
    expect(keptCodes(), 'no code kept for the file').to.deep.equal([]);
    expect(storedCoupon(UPLOADED_CAMPAIGN, undefined, '/__uploads/offer.json')).to.equal(undefined);
    block.remove();

    const mine = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${UPLOADED_CAMPAIGN}></coupon-claim>`);
    await settled(mine);
    expect(part(mine, 'code')?.textContent, 'the merchant’s element shows no planted code').to.equal(undefined);
  });

  it('another address of the same origin is another endpoint: its code is not the merchant’s proxy’s', async () => {
    const other = `${location.origin}/api/appsync/marketing`;
    const block = placeBlock(`<coupon-claim campaign-id="${BEANS}" endpoint="${other}"></coupon-claim>`);
    const theirs = inBlock<CouponClaim>(block, 'coupon-claim');
    await claim(theirs);
    const code = part(theirs, 'code')?.textContent;
    expect(code, 'a real proxy of the site answered').to.be.a('string');
    expect(storedCoupon(BEANS, undefined, other)?.code).to.equal(code);
    block.remove();

    expect(storedCoupon(BEANS), 'nothing kept for the page’s own endpoint').to.equal(undefined);
    const mine = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${BEANS}></coupon-claim>`);
    await settled(mine);
    expect(part(mine, 'code')?.textContent).to.equal(undefined);
  });

  for (const [what, path] of [
    ['without the Loyalty-Proxy header', 'unmarked'],
    ['that is not JSON', 'text'],
  ] as const)
    it(`an answer ${what} is refused before anything is kept`, async () => {
      const block = placeBlock(`<coupon-claim campaign-id="${BEANS}" endpoint="${hostile}/${path}"></coupon-claim>`);
      const theirs = inBlock<CouponClaim>(block, 'coupon-claim');
      const refused = new Promise<{ code: string; message: string }>((resolve) =>
        theirs.addEventListener('coupon-claim-error', (event) => resolve((event as CustomEvent).detail), {
          once: true,
        }),
      );
      await claim(theirs);
      expect((await refused).code).to.equal('invalid_response');
      expect(part(theirs, 'code')).to.equal(null);
      expect(storedCoupon(BEANS, undefined, `${hostile}/${path}`)).to.equal(undefined);
      expect(keptCodes()).to.deep.equal([]);
    });
});
