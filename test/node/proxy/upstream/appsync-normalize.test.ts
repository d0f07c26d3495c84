/**
 * The proxy in front of an AppSync-shaped Marketing API hands browsers clean data: every answer of a
 * built-in operation is in the widgets' shapes (the browser client's own parsers accept it), records
 * the widgets cannot use are dropped and counted in the log, partial data is served, and hosts' own
 * operations pass through unchanged. Real sandbox (appsync flavour), real proxy, real HTTP.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appsyncSeed } from '../../../../src/sandbox/index.ts';
import { parseBusinessAccountPage } from '../../../../src/marketing/business-accounts.ts';
import { parseCampaign, parseCampaignPage } from '../../../../src/marketing/responses.ts';
import { useAppSyncProxy } from '../../support/appsync-proxy.ts';
import { post, serveProxy, type ProxyUnderTest } from '../../support/proxy-server.ts';

/** Every item of every page of a list, following the proxy's cursors. */
async function everyItem(proxy: ProxyUnderTest, operation: string, variables: Record<string, unknown> = {}) {
  const items: Record<string, unknown>[] = [];
  let nextToken: string | null = null;
  do {
    const reply = await post(proxy.url, {
      operation,
      variables: { ...variables, limit: 5, ...(nextToken ? { nextToken } : {}) },
    });
    assert.equal(reply.status, 200, reply.text);
    items.push(...reply.body.data[operation].items);
    nextToken = reply.body.data[operation].nextToken;
  } while (nextToken);
  return items;
}

describe('Marketing proxy in front of an AppSync-shaped upstream: normalized answers', () => {
  const seed = appsyncSeed();
  // A whole record failing (its list element null, with an error), and one field failing.
  const failing = seed.campaigns.find((campaign) => campaign.id === 'camp-harbor-beans')!;
  failing.fail = { errorType: 'DynamoDB:DynamoDbException' };
  seed.campaigns.find((campaign) => campaign.id === 'camp-crumb-sourdough')!.fail = {
    errorType: 'Lambda:Unhandled',
    field: 'featuredImage',
  };
  // Like the seed's nameless kiosk (nulls everywhere), with a name.
  const kiosk = seed.businessAccounts.find((account) => account.id === 'biz-unnamed-kiosk')!;
  seed.businessAccounts.push({
    ...kiosk,
    id: 'biz-undecided',
    name: 'Undecided Deli',
    customProperties: [{ key: null, value: 'orphan value' }],
  });

  const appsync = useAppSyncProxy({ seed }, { cache: false });

  it("campaigns: only usable records, in the widgets' shape, which the browser client accepts", async () => {
    const items = await everyItem(appsync.proxy, 'campaigns');
    const ids = items.map((item) => item.id);
    for (const unusable of ['camp-crumb-no-content', 'camp-florist-untitled', 'camp-harbor-beans'])
      assert.ok(!ids.includes(unusable), unusable);
    assert.equal(new Set(ids).size, ids.length);
    const expected = seed.campaigns.filter(
      (campaign) => campaign.content?.title && !(campaign.fail && !campaign.fail.field),
    ).length;
    assert.equal(ids.length, expected);
    const page = parseCampaignPage({ campaigns: { items, nextToken: null } });
    assert.equal(page.items.length, items.length);
    for (const item of items) {
      const content = item.content as Record<string, unknown>;
      assert.deepEqual(Object.keys(item), ['id', 'businessAccountId', 'content']);
      assert.deepEqual(Object.keys(content), [
        'title',
        'subtitle',
        'description',
        'img320',
        'img640',
        'img960',
        'img1280',
        'objective',
      ]);
      assert.equal(typeof content.subtitle, 'string');
    }
  });

  it('campaign details: a numeric price as text, an unknown objective type as its name alone, nulls as the widgets expect', async () => {
    const byId = async (id: string) =>
      (await post(appsync.proxy.url, { operation: 'campaign', variables: { id } })).body.data.campaign;
    const sourdough = await byId('camp-crumb-sourdough');
    assert.deepEqual(sourdough.content.objective, { __typename: 'CouponObjective', price: '3.5' });
    assert.equal(sourdough.content.subtitle, '');
    assert.equal(sourdough.content.img640, null, 'a failed field is no image');
    assert.equal(parseCampaign({ campaign: sourdough }).objective.kind, 'coupon');
    const survey = await byId('camp-crumb-survey');
    assert.deepEqual(survey.content.objective, { __typename: 'SurveyObjective' });
    const visits = await byId('camp-florist-visits');
    assert.deepEqual(visits.content.objective, { __typename: 'VisitObjective' });
    const bouquet = await byId('camp-florist-bouquet');
    assert.deepEqual(bouquet.content.objective, { __typename: 'CouponObjective', price: null });
    assert.equal(bouquet.content.img320, null);
    assert.equal(
      await byId('camp-florist-untitled'),
      null,
      'a campaign without a title is no campaign for the widgets',
    );
    assert.equal(await byId('camp-crumb-no-content'), null);
    assert.equal(await byId('camp-nope'), null);
  });

  it('business accounts: no nameless ones, unknown approval not shown as approved, custom properties without null keys or values', async () => {
    const items = await everyItem(appsync.proxy, 'businessAccounts');
    const byId = new Map(items.map((item) => [item.id, item as Record<string, unknown>]));
    assert.ok(!byId.has('biz-unnamed-kiosk'));
    assert.equal(byId.get('biz-undecided')!.pending, true);
    assert.deepEqual(byId.get('biz-undecided')!.customProperties, []);
    const bakery = byId.get('biz-crumb-bakery')!;
    assert.deepEqual(bakery.customProperties, [{ key: 'glutenFree', value: 'Fridays' }]);
    assert.deepEqual(bakery.address, { streetAddress: '9 Mill Lane', postalCode: '', city: 'Boulder' });
    assert.equal(bakery.websiteUrl, '');
    assert.equal(bakery.logo, null);
    const harbor = byId.get('biz-harbor-coffee')!;
    assert.ok(!(harbor.customProperties as { key: string }[]).some((property) => property.key === 'terrace'));
    assert.equal(parseBusinessAccountPage({ businessAccounts: { items, nextToken: null } }).items.length, items.length);
  });

  it('serves partial data (errors beside usable data) and logs how many records it dropped, without their data', async () => {
    const before = appsync.proxy.logs.length;
    const reply = await post(appsync.proxy.url, { operation: 'campaigns', variables: { limit: 50 } });
    assert.equal(reply.status, 200, reply.text);
    assert.ok(!reply.text.includes('errors'));
    const entry = appsync.proxy.logs.slice(before).find((logged) => logged.operation === 'campaigns')!;
    assert.equal(entry.partial, true);
    assert.ok(entry.dropped! >= 3, `dropped ${entry.dropped}`);
    assert.ok(!JSON.stringify(entry).includes('camp-'), 'counts only');
  });

  it('a campaign whose resolver fails is an upstream error, not a crash', async () => {
    const reply = await post(appsync.proxy.url, { operation: 'campaign', variables: { id: failing.id } });
    assert.equal(reply.status, 502);
    assert.equal(reply.body.error.code, 'upstream_error');
  });

  it("passes a host's own operation through unchanged, nulls and all", async () => {
    const hosted = await serveProxy({
      upstreamUrl: appsync.upstream.marketingUrl,
      cache: false,
      operations: {
        accountNames: {
          kind: 'query',
          variables: {},
          document: 'query accountNames { businessAccounts(limit: 100) { items { id name pending } } }',
        },
      },
    });
    try {
      const reply = await post(hosted.url, { operation: 'accountNames' });
      assert.equal(reply.status, 200, reply.text);
      const kiosk = reply.body.data.businessAccounts.items.find(
        (item: { id: string } | null) => item?.id === 'biz-unnamed-kiosk',
      );
      assert.deepEqual(kiosk, { id: 'biz-unnamed-kiosk', name: null, pending: null });
    } finally {
      await hosted.close();
    }
  });
});
