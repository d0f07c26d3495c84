/**
 * WCAG 4.1.2 (name, role, value) across elements: a claim started by one element settles every
 * element showing that campaign, so none is left announcing "Getting your coupon…" as busy.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session } from '../../../src/connect/session.ts';
import { part, showsOneOf } from '../parts.ts';
import { clearStoredClaims } from '../marketing/helpers.ts';
import { shopper } from './themes.ts';

const BEANS = 'camp-harbor-beans';

/** The members' card and a carousel slide's compact claim, for the same campaign, signed in. */
async function twoClaims(): Promise<[CouponClaim, CouponClaim]> {
  session.set(shopper, 'signin');
  const root = await fixture<HTMLDivElement>(html`<div>
    <coupon-claim campaign-id=${BEANS} require-signin></coupon-claim>
    <coupon-claim compact campaign-id=${BEANS}></coupon-claim>
  </div>`);
  const [card, slide] = [...root.querySelectorAll<CouponClaim>('coupon-claim')] as [CouponClaim, CouponClaim];
  await showsOneOf(card, ['claim-button']);
  await showsOneOf(slide, ['claim-button']);
  return [card, slide];
}

/** Answers the claim with this response once the page has seen both elements go busy. */
function holdClaim(respond: () => Response) {
  const original = window.fetch;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  window.fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { operation?: string };
    if (body.operation !== 'requestCoupon') return original(input, init);
    await released;
    return respond();
  };
  return { release, restore: () => void (window.fetch = original) };
}

const busy = (el: CouponClaim) => part(el, 'claim-button')?.getAttribute('aria-disabled') === 'true';

describe('one claim, several elements for the campaign', () => {
  beforeEach(clearStoredClaims);
  afterEach(() => session.set(null, 'signout'));

  it('the other element shows the code too, without being pressed', async () => {
    const [card, slide] = await twoClaims();
    part(card, 'claim-button')!.click();
    await waitUntil(() => part(card, 'code'), 'the card shows its code', { timeout: 8000 });
    await waitUntil(() => part(slide, 'code'), 'the slide still says "Getting your coupon…"', { timeout: 3000 });
    expect(part(slide, 'code')!.textContent).to.equal(part(card, 'code')!.textContent);
  });

  it('after a claim that succeeds, or fails, no element stays busy', async () => {
    // The proxy's answers, marked as the proxy marks them.
    const PROXY = { 'loyalty-proxy': '1' };
    for (const outcome of ['success', 'failure'] as const) {
      clearStoredClaims();
      const [card, slide] = await twoClaims();
      const network = holdClaim(() =>
        outcome === 'success'
          ? Response.json({ data: { requestCoupon: { coupon: { code: 'HELD-CODE' } } } }, { headers: PROXY })
          : Response.json({ error: { code: 'rate_limited', message: 'Slow down.' } }, { status: 429, headers: PROXY }),
      );
      try {
        part(card, 'claim-button')!.click();
        await card.updateComplete;
        await slide.updateComplete;
        expect([busy(card), busy(slide)], `both busy while the ${outcome} is on its way`).to.deep.equal([true, true]);
        network.release();
        await waitUntil(() => !busy(card), `the card settles after the ${outcome}`, { timeout: 8000 });
        await waitUntil(() => !busy(slide), `the slide stays busy after the ${outcome}`, { timeout: 3000 });
        if (outcome === 'success') expect(part(slide, 'code')?.textContent).to.equal('HELD-CODE');
        else expect(part(slide, 'claim-button'), 'the slide offers the claim again').to.not.equal(null);
      } finally {
        network.restore();
      }
    }
  });
});
