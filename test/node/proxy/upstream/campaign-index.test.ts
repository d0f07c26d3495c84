/**
 * One business account's campaigns in a large program: read through the upstream's index when its
 * schema has one (found by introspection), and otherwise by a bounded filtered scan whose every
 * upstream call counts against the address's query-miss limit. Real sandbox (appsync flavour, with
 * and without the index), real proxy, real HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PAGE_FILL } from '../../../../src/proxy/index.ts';
import { LATE_ACCOUNT, lateSeed, startAppSyncUpstream } from '../../support/appsync-proxy.ts';
import { post, serveProxy, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

const ROWS = 5000;
const page = (proxy: ProxyUnderTest, variables: Record<string, unknown>) =>
  post(proxy.url, { operation: 'campaigns', variables });

describe('campaigns of one business account whose two campaigns come last of 5,000 in scan order', () => {
  const running = {} as { indexed: Upstream; scanned: Upstream; viaIndex: ProxyUnderTest; viaScan: ProxyUnderTest };
  before(async () => {
    running.indexed = await startAppSyncUpstream({ seed: lateSeed(ROWS), campaignIndex: true });
    running.scanned = await startAppSyncUpstream({ seed: lateSeed(ROWS) });
    running.viaIndex = await serveProxy({ upstreamUrl: running.indexed.marketingUrl, cache: false });
    running.viaScan = await serveProxy({ upstreamUrl: running.scanned.marketingUrl, cache: false });
  });
  after(async () => {
    await Promise.all([running.viaIndex?.close(), running.viaScan?.close()]);
    await Promise.all([running.indexed?.dispose(), running.scanned?.dispose()]);
  });

  it('are read through the index query: one upstream call reading only their rows', async () => {
    await page(running.viaIndex, { limit: 1 }); // reads the schema
    running.indexed.resetStats();
    const reply = await page(running.viaIndex, { businessAccountId: LATE_ACCOUNT, limit: 10 });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(
      reply.body.data.campaigns.items.map((item: { id: string }) => item.id),
      ['camp-late-1', 'camp-late-2'],
    );
    assert.equal(reply.body.data.campaigns.nextToken, null, 'the upstream said there are no more');
    const stats = running.indexed.stats();
    assert.deepEqual(stats.byOperation, { campaignsByBusinessAccountId: 1 });
    assert.equal(stats.rowsRead, 2);
  });

  it('without an index, a bounded scan answers an empty page that still carries a cursor, never a final one', async () => {
    await page(running.viaScan, { limit: 1 });
    running.scanned.resetStats();
    const reply = await page(running.viaScan, { businessAccountId: LATE_ACCOUNT, limit: 10 });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.data.campaigns.items, []);
    assert.equal(typeof reply.body.data.campaigns.nextToken, 'string');
    assert.equal(running.scanned.stats().byOperation.campaigns, DEFAULT_PAGE_FILL.maxUpstreamCalls);
    assert.equal(running.scanned.stats().byOperation.campaignsByBusinessAccountId, undefined);
  });

  it("a scan's cursor is refused by a proxy reading through the index, before anything goes upstream", async () => {
    const scanned = await page(running.viaScan, { businessAccountId: LATE_ACCOUNT, limit: 10 });
    const cursor = scanned.body.data.campaigns.nextToken as string;
    await page(running.viaIndex, { limit: 1 });
    running.indexed.resetStats();
    const reply = await page(running.viaIndex, { businessAccountId: LATE_ACCOUNT, limit: 10, nextToken: cursor });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body.error.code, 'invalid_cursor');
    assert.deepEqual(running.indexed.stats().byOperation, {});
  });

  it('every upstream call of a filled page counts against the query-miss limit', async () => {
    const limited = await serveProxy({
      upstreamUrl: running.scanned.marketingUrl,
      cache: false,
      introspection: false,
      rateLimits: { queryMisses: { limit: DEFAULT_PAGE_FILL.maxUpstreamCalls + 1, windowSeconds: 60 } },
    });
    try {
      running.scanned.resetStats();
      const first = await page(limited, { businessAccountId: 'ba-made-up', limit: 10 });
      assert.equal(first.status, 200, first.text);
      assert.equal(running.scanned.stats().byOperation.campaigns, DEFAULT_PAGE_FILL.maxUpstreamCalls);
      const second = await page(limited, { businessAccountId: 'ba-made-up', limit: 10 });
      assert.equal(second.status, 429, second.text);
      assert.equal(second.body.error.code, 'rate_limited');
      assert.equal(
        running.scanned.stats().byOperation.campaigns,
        DEFAULT_PAGE_FILL.maxUpstreamCalls + 1,
        'the second request stops after the one call the limit still allowed',
      );
    } finally {
      await limited.close();
    }
  });
});
