import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session, type LoyaltyUser } from '../../../src/connect/session.ts';
import { claimCoupon } from '../../../src/marketing/coupon-claims.ts';
import { clientFor } from '../../../src/marketing/client.ts';
import { tokenOriginAllowed } from '../../../src/marketing/token-origins.ts';
import { MarketingError } from '../../../src/marketing/errors.ts';
import { clearStoredClaims, recordFetches } from './helpers.ts';
import { part } from '../parts.ts';

const LATTE = 'camp-harbor-morning-latte';
const shopper: LoyaltyUser = {
  sub: 'shopper-7',
  username: 'demo',
  loyaltyId: '0xabc',
  accessToken: 'access-token-7',
  idToken: 'id-token-7',
  expiresAt: Date.now() + 3_600_000,
  scope: 'openid profile',
};
const tokens = { shopper: shopper.sub, accessToken: shopper.accessToken, idToken: shopper.idToken };

/** Answers every request itself, as the listed origin's proxy (nothing leaves the browser), and records the headers it was sent with. */
function collectingFetch() {
  const original = window.fetch;
  const seen: { url: string; headers: Headers }[] = [];
  window.fetch = async (input, init) => {
    seen.push({ url: String(input), headers: new Headers(init?.headers) });
    return new Response(JSON.stringify({ data: { requestCoupon: { coupon: { code: 'COLLECTED' } } } }), {
      status: 200,
      headers: { 'content-type': 'application/json', 'loyalty-proxy': '1' },
    });
  };
  return { seen, restore: () => void (window.fetch = original) };
}

function addMeta(parent: HTMLElement, content: string): HTMLMetaElement {
  const meta = document.createElement('meta');
  meta.name = 'loyalty-token-origins';
  meta.content = content;
  parent.append(meta);
  return meta;
}

async function failure(promise: Promise<unknown>): Promise<MarketingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(MarketingError);
  return error as MarketingError;
}

describe('where the shopper’s tokens may go', () => {
  afterEach(() => {
    clearStoredClaims();
    session.set(null, 'signout');
    for (const meta of document.querySelectorAll('meta[name="loyalty-token-origins"]')) meta.remove();
  });

  it('never to an endpoint on another origin that the markup names (an edited CMS block)', async () => {
    const network = collectingFetch();
    try {
      const error = await failure(
        claimCoupon(clientFor('https://elsewhere.example/collect'), {
          campaignId: LATTE,
          ...tokens,
          requireSignin: true,
        }),
      );
      expect(error.code).to.equal('config');
      expect(error.message).to.contain('loyalty-token-origins');
      expect(network.seen).to.have.length(0);
    } finally {
      network.restore();
    }
  });

  it('to an origin the merchant lists in the head, and not for a list inside the page body', async () => {
    const network = collectingFetch();
    const inBody = addMeta(document.body, 'https://elsewhere.example');
    try {
      expect(tokenOriginAllowed('https://elsewhere.example/collect')).to.equal(false);
      addMeta(document.head, 'https://api.shop.example, https://elsewhere.example');
      expect(tokenOriginAllowed('https://elsewhere.example/collect')).to.equal(true);
      expect(tokenOriginAllowed('https://elsewhere.example.evil.test/collect')).to.equal(false);
      await claimCoupon(clientFor('https://api.shop.example/api/marketing'), {
        campaignId: LATTE,
        ...tokens,
        requireSignin: true,
      });
      expect(network.seen).to.have.length(1);
      expect(network.seen[0]!.headers.get('authorization')).to.equal('Bearer access-token-7');
      expect(network.seen[0]!.headers.get('x-loyalty-id-token')).to.equal('id-token-7');
    } finally {
      inBody.remove();
      network.restore();
    }
  });

  it('not with a claim that does not need sign-in, even from a signed-in shopper', async () => {
    const fetches = recordFetches();
    session.set(shopper, 'signin');
    try {
      const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
      await waitUntil(() => part(el, 'claim-button'), 'claim button', { timeout: 8000 });
      part<HTMLElement>(el, 'claim-button')!.click();
      await waitUntil(() => part(el, 'code'), 'a code', { timeout: 8000 });
      const [call] = fetches.of('requestCoupon');
      expect(call!.headers.get('authorization')).to.equal(null);
      expect(call!.headers.get('x-loyalty-id-token')).to.equal(null);
    } finally {
      fetches.restore();
    }
  });

  it('to the page’s own proxy with require-signin: both tokens', async () => {
    const fetches = recordFetches();
    session.set(shopper, 'signin');
    try {
      const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} require-signin></coupon-claim>`);
      await waitUntil(() => part(el, 'claim-button'), 'claim button', { timeout: 8000 });
      part<HTMLElement>(el, 'claim-button')!.click();
      await waitUntil(() => part(el, 'code'), 'a code', { timeout: 8000 });
      const [call] = fetches.of('requestCoupon');
      expect(call!.headers.get('authorization')).to.equal('Bearer access-token-7');
      expect(call!.headers.get('x-loyalty-id-token')).to.equal('id-token-7');
    } finally {
      fetches.restore();
    }
  });
});
