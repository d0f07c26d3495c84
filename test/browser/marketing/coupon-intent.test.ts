/**
 * A coupon's page loads the claim itself (keys, locks, retries) only when the shopper is about to
 * claim: the element shows its campaign, a kept code or a running claim without it.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { clearStoredClaims, minted } from './helpers.ts';
import { part, showsOneOf } from '../parts.ts';

const LATTE = 'camp-harbor-morning-latte';

/** Whether the page fetched a module of this name. */
const fetched = (module: string): boolean =>
  performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname.endsWith(`/${module}`));

describe('<coupon-claim> and the claim’s code', () => {
  beforeEach(clearStoredClaims);
  afterEach(clearStoredClaims);

  it('is fetched when the pointer reaches the coupon, not with the page, and claims once there', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
    await showsOneOf(el, ['claim-button']);
    expect(fetched('claim-request.ts'), 'the claim, at load').to.equal(false);
    expect(fetched('coupon-claims.ts'), 'the claims’ keys and locks, at load').to.equal(false);

    el.dispatchEvent(new PointerEvent('pointerenter'));
    await waitUntil(() => fetched('claim-request.ts') && fetched('coupon-claims.ts'), 'fetched on intent', {
      timeout: 8000,
    });

    const before = await minted();
    part(el, 'claim-button')!.click();
    await waitUntil(() => part(el, 'code') ?? part(el, 'error'), 'no answer', { timeout: 8000 });
    expect(part(el, 'code')?.textContent).to.match(/^SAVE-/);
    expect(await minted()).to.equal(before + 1);
  });
});
