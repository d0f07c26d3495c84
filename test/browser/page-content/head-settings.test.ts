/**
 * Issue 25, finding 3, and issue 21, items 3.1 and 3.2: where the widgets send requests and tokens is
 * the merchant's to say, in the real head. A block of page content cannot set the page's endpoint
 * (a <meta> in the body, a <form name="head"> standing in for document.head, a <base> in the body),
 * cannot list an origin for the shopper's tokens, and cannot break the settings' reading by naming
 * elements after the document's methods; and a redirect never carries a request elsewhere.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import { session } from '../../../src/connect/session.ts';
import { claimCoupon } from '../../../src/marketing/coupon-claims.ts';
import { clientFor } from '../../../src/marketing/client.ts';
import { MarketingError } from '../../../src/marketing/errors.ts';
import { tokenOriginAllowed } from '../../../src/marketing/token-origins.ts';
import { resolveEndpoint } from '../../../src/shared/config.ts';
import { part, showsOneOf } from '../parts.ts';
import { hostileEnv, hostileStats, setScenario } from '../signin/helpers.ts';
import { aShopper, clearPage, inBlock, placeBlock } from './helpers.ts';

const LATTE = 'camp-harbor-morning-latte';
const shopper = aShopper('21');

/** The merchant's own element, without an endpoint of its own: what it shows once settled. */
async function merchantCampaignTitle(): Promise<string> {
  const el = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE}></coupon-claim>`);
  await showsOneOf(el, ['title', 'error']);
  return part(el, 'title')?.textContent ?? `failed: ${part(el, 'error')?.textContent ?? ''}`;
}

/** Headers of the requests that reached the hostile server. */
async function reachedHostile(): Promise<Record<string, string>[]> {
  return (await hostileStats()).marketingRequests;
}

describe('settings a block of page content cannot give', () => {
  let hostileOrigin: string;
  let hostileEndpoint: string;
  before(async () => {
    hostileOrigin = (await hostileEnv()).url;
    hostileEndpoint = `${hostileOrigin}/__hostile/marketing`;
  });
  beforeEach(async () => {
    clearPage();
    await setScenario('valid'); // resets the hostile server's counters
  });
  afterEach(() => {
    clearPage();
    for (const meta of document.head.querySelectorAll('meta[name^="loyalty-"]')) meta.remove();
  });

  it('the page’s endpoint: a <meta name="loyalty-endpoint"> in the body, even inside a <form name="head">, is not read', async () => {
    placeBlock(`<meta name="loyalty-endpoint" content="${hostileEndpoint}">`);
    placeBlock(`<form name="head"><meta name="loyalty-endpoint" content="${hostileEndpoint}"></form>`);
    expect(resolveEndpoint(undefined)).to.equal('/api/marketing');
    expect(await merchantCampaignTitle()).to.equal('Morning latte for less');
    expect(await reachedHostile()).to.have.length(0);
  });

  it('the page’s endpoint: the merchant’s <meta> in the head is read', async () => {
    const meta = Object.assign(document.createElement('meta'), { name: 'loyalty-endpoint', content: hostileEndpoint });
    document.head.append(meta);
    expect(resolveEndpoint(undefined)).to.equal(hostileEndpoint);
    expect(resolveEndpoint(' /elsewhere ')).to.equal('/elsewhere');
  });

  it('where relative endpoints lead: the page’s own address, not a <base> in the body', async () => {
    placeBlock(`<base href="${hostileOrigin}/__hostile/">`);
    expect(document.baseURI, 'the block did move the document’s base').to.equal(`${hostileOrigin}/__hostile/`);
    expect(clientFor('/api/marketing').endpoint).to.equal(`${location.origin}/api/marketing`);
    expect(clientFor('marketing').endpoint).to.equal(new URL('marketing', location.href).href);
    expect(await merchantCampaignTitle()).to.equal('Morning latte for less');
    expect(await reachedHostile()).to.have.length(0);
  });

  it('keeps reading the head when a block names elements after the document’s methods and properties', async () => {
    placeBlock('<img name="querySelector"><img name="querySelectorAll"><img name="baseURI"><form name="head"></form>');
    const meta = Object.assign(document.createElement('meta'), { name: 'loyalty-endpoint', content: '/api/marketing' });
    document.head.append(meta);
    expect(resolveEndpoint(undefined)).to.equal('/api/marketing');
    expect(await merchantCampaignTitle()).to.equal('Morning latte for less');
  });

  it('the shopper’s tokens: a <form name="head"> listing an origin does not let them go there (issue 21, 3.1)', async () => {
    placeBlock(`<form name="head"><meta name="loyalty-token-origins" content="${hostileOrigin}"></form>`);
    expect(tokenOriginAllowed(`${hostileEndpoint}`)).to.equal(false);
    session.set(shopper, 'signin');
    const block = placeBlock(
      `<coupon-claim campaign-id="${LATTE}" endpoint="${hostileEndpoint}" require-signin></coupon-claim>`,
    );
    const el = inBlock<CouponClaim>(block, 'coupon-claim');
    await showsOneOf(el, ['claim-button']);
    part(el, 'claim-button')!.click();
    await showsOneOf(el, ['error', 'code']);
    expect(part(el, 'code')?.textContent).to.equal(undefined);
    const carried = (await reachedHostile()).filter(
      (headers) => headers.authorization || headers['x-loyalty-id-token'],
    );
    expect(carried, 'requests that carried the shopper’s tokens').to.have.length(0);
  });

  it('a request is never redirected: an open redirect on a trusted origin gets no token, key or code through (issue 21, 3.2)', async () => {
    // The merchant trusts the origin; a redirect there points at another of its paths.
    const meta = Object.assign(document.createElement('meta'), {
      name: 'loyalty-token-origins',
      content: hostileOrigin,
    });
    document.head.append(meta);
    const redirecting = `${hostileOrigin}/__hostile/redirect?to=${encodeURIComponent(hostileEndpoint)}`;
    const outcome = await claimCoupon(clientFor(redirecting), {
      campaignId: LATTE,
      shopper: shopper.sub,
      accessToken: shopper.accessToken,
      idToken: shopper.idToken,
      requireSignin: true,
    }).then(
      (coupon) => coupon.code,
      (error: unknown) => (error instanceof MarketingError ? error.code : String(error)),
    );
    expect(outcome).to.equal('network');
    expect(await reachedHostile(), 'requests that reached the redirect’s target').to.have.length(0);
  });
});
