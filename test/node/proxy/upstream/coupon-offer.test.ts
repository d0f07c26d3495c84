/**
 * A coupon request for a campaign that offers none is refused 422 from the campaign's objective
 * (read, cached, when the upstream's refusal is in words the proxy does not know), whatever words it uses. Real sandbox (appsync
 * flavour), real proxy, real HTTP; the upstream's wording is changed on the wire.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fetchTransport, type UpstreamTransport } from '../../../../src/proxy/index.ts';
import { appsyncSeed } from '../../../../src/sandbox/index.ts';
import { useAppSyncProxy } from '../../support/appsync-proxy.ts';
import { post } from '../../support/proxy-server.ts';

/** The upstream as it is, except that its coupon refusals use a wording of their own. */
const otherWording: UpstreamTransport = async (request) => {
  const reply = await fetchTransport(fetch)(request);
  return { ...reply, text: reply.text.replace(/Campaign \S+ has no coupon objective/g, 'Offer type not eligible') };
};

describe('a coupon request for a campaign without a coupon objective', () => {
  const seed = appsyncSeed();
  const survey = seed.campaigns.find((campaign) => campaign.content?.objective?.type === 'survey')!;
  const coupon = seed.campaigns.find((campaign) => campaign.content?.objective?.type === 'coupon')!;
  const appsync = useAppSyncProxy({ seed }, { transport: otherWording });
  const mints = () => appsync.upstream.stats().byOperation.requestCoupon ?? 0;

  it('is 422 no_coupon_objective from the objective, whatever the upstream says', async () => {
    const refused = await post(appsync.proxy.url, { operation: 'requestCoupon', variables: { campaignId: survey.id } });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.error.code, 'no_coupon_objective');
  });

  it('still mints for a coupon campaign', async () => {
    const before = mints();
    const minted = await post(appsync.proxy.url, { operation: 'requestCoupon', variables: { campaignId: coupon.id } });
    assert.equal(minted.status, 200, minted.text);
    assert.equal(typeof minted.body.data.requestCoupon.coupon.code, 'string');
    assert.equal(mints(), before + 1);
  });
});
