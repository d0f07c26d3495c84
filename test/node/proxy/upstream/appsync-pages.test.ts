/**
 * Full pages from an upstream that filters after `limit` (sparse and empty pages with a token): the
 * proxy fills each page within its caps and resumes exactly where it stopped, behind cursors of its
 * own that are bound to the list and refused (400 invalid_cursor) when tampered with, foreign or
 * malformed. Real sandbox (appsync flavour), real proxy, real HTTP.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PageCursors } from '../../../../src/proxy/upstream/cursor.ts';
import { MAX_NEXT_TOKEN_LENGTH } from '../../../../src/proxy/upstream/operations.ts';
import { createMarketingProxy, DEFAULT_PAGE_FILL } from '../../../../src/proxy/index.ts';
import { SPARSE_ACCOUNT, sparseSeed, startAppSyncUpstream, useAppSyncProxy } from '../../support/appsync-proxy.ts';
import { post, serveProxy } from '../../support/proxy-server.ts';

const ROWS = 600;
const EVERY = 20;
const MINE = ROWS / EVERY;
const expectedIds = Array.from({ length: MINE }, (_, index) => `camp-sparse-${String(index + 1).padStart(4, '0')}`);

describe('Marketing proxy in front of an AppSync-shaped upstream: pages and cursors', () => {
  const appsync = useAppSyncProxy({ seed: sparseSeed(ROWS, EVERY) });
  const campaignsCalls = () => appsync.upstream.stats().byOperation.campaigns ?? 0;
  const page = (variables: Record<string, unknown>, target = appsync.proxy) =>
    post(target.url, { operation: 'campaigns', variables });

  it('the upstream itself gives sparse pages (the case the proxy is for)', async () => {
    const direct = await fetch(appsync.upstream.marketingUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': appsync.upstream.apiKey },
      body: JSON.stringify({
        query: `query { campaigns(filter: { businessAccountId: { eq: "${SPARSE_ACCOUNT}" } }, limit: 10) { items { id } nextToken } }`,
      }),
    });
    const { data } = (await direct.json()) as { data: { campaigns: { items: unknown[]; nextToken: string } } };
    assert.equal(data.campaigns.items.length, 0);
    assert.ok(data.campaigns.nextToken.length > 900, 'a long upstream token');
  });

  for (const limit of [3, 7, 10]) {
    it(`walks the whole list in full pages of ${limit}, no item lost or repeated, within the call cap`, async () => {
      const ids: string[] = [];
      let nextToken: string | undefined;
      let pages = 0;
      do {
        const before = campaignsCalls();
        const reply = await page({ businessAccountId: SPARSE_ACCOUNT, limit, ...(nextToken ? { nextToken } : {}) });
        assert.equal(reply.status, 200, reply.text);
        assert.ok(
          campaignsCalls() - before <= DEFAULT_PAGE_FILL.maxUpstreamCalls,
          'at most the cap of upstream calls per request',
        );
        const { items, nextToken: next } = reply.body.data.campaigns;
        ids.push(...items.map((item: { id: string }) => item.id));
        if (next) {
          assert.equal(items.length, limit, `page ${pages} is full`);
          assert.ok(next.length <= MAX_NEXT_TOKEN_LENGTH);
        }
        nextToken = next ?? undefined;
        pages += 1;
      } while (nextToken && pages < 50);
      assert.deepEqual(ids, expectedIds);
    });
  }

  it('stops at the call cap with what it found and a cursor that continues from there', async () => {
    const capped = await serveProxy({
      upstreamUrl: appsync.upstream.marketingUrl,
      cache: false,
      pageFill: { maxUpstreamCalls: 1, maxUpstreamLimit: 20 },
    });
    try {
      const before = campaignsCalls();
      const first = await page({ businessAccountId: SPARSE_ACCOUNT, limit: 5 }, capped);
      assert.equal(campaignsCalls() - before, 1);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.campaigns.items.length, 0, 'the first 5 rows hold none of them');
      const second = await page(
        { businessAccountId: SPARSE_ACCOUNT, limit: 5, nextToken: first.body.data.campaigns.nextToken },
        capped,
      );
      assert.deepEqual(
        second.body.data.campaigns.items.map((item: { id: string }) => item.id),
        ['camp-sparse-0001'],
      );
    } finally {
      await capped.close();
    }
  });

  it('stops at the time cap', async () => {
    const hurried = await serveProxy({
      upstreamUrl: appsync.upstream.marketingUrl,
      cache: false,
      pageFill: { maxMillis: 0 },
    });
    try {
      const before = campaignsCalls();
      const reply = await page({ businessAccountId: SPARSE_ACCOUNT, limit: 5 }, hurried);
      assert.equal(reply.status, 200);
      assert.equal(campaignsCalls() - before, 1);
      assert.equal(typeof reply.body.data.campaigns.nextToken, 'string');
    } finally {
      await hurried.close();
    }
  });

  it('refuses page-fill bounds that could not fill a page', () => {
    for (const pageFill of [
      { maxUpstreamCalls: 0 },
      { maxUpstreamLimit: 0 },
      { maxUpstreamLimit: 2.5 },
      { maxMillis: -1 },
    ]) {
      assert.throws(
        () => createMarketingProxy({ upstreamUrl: appsync.upstream.marketingUrl, apiKey: 'key', pageFill }),
        /pageFill/,
      );
    }
  });

  it("caches pages by the browser's variables, cursor included", async () => {
    const variables = { businessAccountId: SPARSE_ACCOUNT, limit: 4 };
    const first = await page(variables);
    const again = await page({ limit: 4, businessAccountId: SPARSE_ACCOUNT });
    assert.equal(again.headers.get('x-cache'), 'HIT');
    assert.equal(again.text, first.text);
    const next = { ...variables, nextToken: first.body.data.campaigns.nextToken };
    const before = campaignsCalls();
    assert.equal((await page(next)).headers.get('x-cache'), 'MISS');
    const repeated = await page(next);
    assert.equal(repeated.headers.get('x-cache'), 'HIT');
    assert.equal(campaignsCalls() - before > 0, true);
    assert.deepEqual(
      repeated.body.data.campaigns.items.map((item: { id: string }) => item.id),
      expectedIds.slice(4, 8),
    );
  });

  describe('cursors', () => {
    let cursor: string;
    before(async () => {
      cursor = (await page({ businessAccountId: SPARSE_ACCOUNT, limit: 2 })).body.data.campaigns.nextToken;
    });

    const refused = async (variables: Record<string, unknown>, target = appsync.proxy, operation = 'campaigns') => {
      const before = campaignsCalls();
      const reply = await post(target.url, { operation, variables });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body.error.code, 'invalid_cursor');
      assert.equal(reply.headers.get('cache-control'), 'no-store');
      assert.equal(campaignsCalls() - before, 0, 'nothing went upstream');
    };

    it('refuses a tampered cursor', async () => {
      const [payload, mac] = cursor.split('.') as [string, string];
      const flipped = (text: string, at: number) =>
        text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken: `${flipped(payload, 5)}.${mac}` });
      await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken: `${payload}.${flipped(mac, 3)}` });
      await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken: `${payload.slice(0, -4)}.${mac}` });
    });

    it('refuses a cursor whose MAC is empty or a prefix of the genuine one', async () => {
      const [payload, mac] = cursor.split('.') as [string, string];
      await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken: `${payload}.` });
      await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken: `${payload}.${mac.slice(0, 4)}` });
    });

    it('refuses a cursor of another list (other filter, no filter, other operation)', async () => {
      await refused({ businessAccountId: 'biz-harbor-coffee', nextToken: cursor });
      await refused({ nextToken: cursor });
      await refused({ nextToken: cursor }, appsync.proxy, 'businessAccounts');
    });

    it('refuses malformed and made-up cursors', async () => {
      for (const nextToken of ['x', 'a.b', '...', 'eyJ2IjoxfQ.AAAA', cursor.replace('.', '..')])
        await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken });
    });

    it('refuses a cursor signed by a proxy with another secret, accepts one from another instance sharing it', async () => {
      const other = await serveProxy({
        upstreamUrl: appsync.upstream.marketingUrl,
        cursorSecret: 'another-deployment',
      });
      const sibling = await serveProxy({ upstreamUrl: appsync.upstream.marketingUrl });
      try {
        await refused({ businessAccountId: SPARSE_ACCOUNT, nextToken: cursor }, other);
        const reply = await page({ businessAccountId: SPARSE_ACCOUNT, limit: 2, nextToken: cursor }, sibling);
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(
          reply.body.data.campaigns.items.map((item: { id: string }) => item.id),
          expectedIds.slice(2, 4),
        );
      } finally {
        await other.close();
        await sibling.close();
      }
    });

    it("fits the protocol's nextToken limit around a 2 kB upstream token, base64 or not", async () => {
      const cursors = new PageCursors('secret');
      const base64Token = Buffer.from(Array.from({ length: 1536 }, (_, index) => index % 256)).toString('base64');
      assert.equal(base64Token.length, 2048);
      const sealed = await cursors.seal('campaigns\n[]', { token: base64Token, limit: 100, skip: 7 });
      assert.ok(sealed.length < 2200, `${sealed.length} characters`);
      assert.deepEqual(await cursors.open('campaigns\n[]', sealed), { token: base64Token, limit: 100, skip: 7 });
      const textToken = `{"k":"${'é'.repeat(1000)}"}`;
      const sealedText = await cursors.seal('s', { token: textToken, limit: 3, skip: 0 });
      assert.ok(sealedText.length <= MAX_NEXT_TOKEN_LENGTH);
      assert.deepEqual(await cursors.open('s', sealedText), { token: textToken, limit: 3, skip: 0 });
      const oddPadding = 'QR==';
      assert.equal(
        (await cursors.open('s', await cursors.seal('s', { token: oddPadding, limit: 1, skip: 0 }))).token,
        oddPadding,
      );
    });
  });

  it('an upstream that no longer knows its token (another deployment) makes the cursor invalid, not a 502', async () => {
    const restarted = await startAppSyncUpstream({ seed: sparseSeed(ROWS, EVERY) });
    const moved = await serveProxy({ upstreamUrl: restarted.marketingUrl, cache: false });
    try {
      const cursor = (await page({ businessAccountId: SPARSE_ACCOUNT, limit: 2 })).body.data.campaigns.nextToken;
      const reply = await page({ businessAccountId: SPARSE_ACCOUNT, limit: 2, nextToken: cursor }, moved);
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body.error.code, 'invalid_cursor');
    } finally {
      await moved.close();
      await restarted.dispose();
    }
  });
});
