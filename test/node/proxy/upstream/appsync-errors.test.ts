/**
 * AppSync's failures (errorType, graphql-java wording, HTTP 401 and 429) become the proxy's own codes:
 * a refused key is a configuration problem, never "try again"; throttling is 503 with Retry-After;
 * not-found and no-coupon resolver errors are 404 and 422; a refused document is a schema mismatch;
 * a coupon request that failed with no result keeps no "a coupon may exist" record. Real sandbox
 * (appsync flavour), real proxy, real HTTP.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appsyncSeed } from '../../../../src/sandbox/index.ts';
import { SPARSE_ACCOUNT, sparseSeed, startAppSyncUpstream, useAppSyncProxy } from '../../support/appsync-proxy.ts';
import { post, serveProxy, startFakeUpstream, TEST_API_KEY } from '../../support/proxy-server.ts';

describe('Marketing proxy in front of an AppSync-shaped upstream: errors', () => {
  const seed = appsyncSeed();
  const broken = seed.campaigns.find((campaign) => campaign.content?.objective?.type === 'coupon')!;
  broken.fail = {
    errorType: 'DynamoDB:DynamoDbException',
    message: `Resolver failed; request signed with ${TEST_API_KEY}`,
  };
  const coupon = seed.campaigns.find((campaign) => campaign.content?.objective?.type === 'coupon' && !campaign.fail)!;
  const survey = seed.campaigns.find((campaign) => campaign.content?.objective?.type === 'survey')!;

  const appsync = useAppSyncProxy({ seed }, { cache: false });

  it('a refused API key (HTTP 401 UnauthorizedException) is upstream_key_refused, logged as a configuration problem', async () => {
    const misconfigured = await serveProxy({ upstreamUrl: appsync.upstream.marketingUrl, apiKey: 'da2-not-the-key' });
    try {
      for (const body of [
        { operation: 'campaigns' },
        { operation: 'requestCoupon', variables: { campaignId: coupon.id } },
      ]) {
        const reply = await post(misconfigured.url, body);
        assert.equal(reply.status, 502);
        assert.equal(reply.body.error.code, 'upstream_key_refused');
        assert.doesNotMatch(reply.body.error.message, /try again\b(?! will not)/i);
        assert.ok(!reply.text.includes('da2-not-the-key'));
      }
      const config = misconfigured.logs.filter((entry) => entry.method === 'CONFIG');
      assert.equal(config.length, 2);
      assert.equal(config[0]!.error, 'upstream_key_refused');
      assert.match(config[0]!.detail!, /MARKETING_API_KEY/);
      assert.ok(!JSON.stringify(misconfigured.logs).includes('da2-not-the-key'));
    } finally {
      await misconfigured.close();
    }
  });

  it('upstream throttling (HTTP 429) is 503 upstream_throttled with Retry-After', async () => {
    await post(appsync.proxy.url, { operation: 'campaign', variables: { id: coupon.id } }); // the proxy has read the schema by now
    appsync.upstream.throttleNext(1);
    const reply = await post(appsync.proxy.url, { operation: 'campaign', variables: { id: coupon.id } });
    assert.equal(reply.status, 503);
    assert.equal(reply.body.error.code, 'upstream_throttled');
    assert.match(reply.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal((await post(appsync.proxy.url, { operation: 'campaign', variables: { id: coupon.id } })).status, 200);
  });

  it('throttling while a page is being filled serves what was found, with a cursor to the rest', async () => {
    const sparse = await startAppSyncUpstream({ seed: sparseSeed(400, 20) });
    // In front of the sandbox: answers as AppSync throttles (429) the request numbered `throttled`.
    let forwarded = 0;
    let throttled = 0;
    const front = await startFakeUpstream(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      forwarded += 1;
      if (forwarded === throttled) {
        res
          .writeHead(429, { 'content-type': 'application/json' })
          .end('{"errors":[{"errorType":"LimitExceededError","message":"Rate limit exceeded"}]}');
        return;
      }
      const answer = await fetch(sparse.marketingUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': String(req.headers['x-api-key']) },
        body,
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    const filling = await serveProxy({ upstreamUrl: front.url, cache: false, introspection: false });
    try {
      const variables = { businessAccountId: SPARSE_ACCOUNT, limit: 10 };
      const first = await post(filling.url, { operation: 'campaigns', variables: { ...variables, limit: 2 } });
      // The next page of 10 needs several reads: its second one is throttled.
      throttled = forwarded + 2;
      const second = await post(filling.url, {
        operation: 'campaigns',
        variables: { ...variables, nextToken: first.body.data.campaigns.nextToken },
      });
      assert.equal(second.status, 200, second.text);
      assert.equal(forwarded, throttled, 'stopped at the throttled read');
      const served = second.body.data.campaigns.items;
      assert.ok(served.length >= 1 && served.length < 10, `${served.length} items`);
      const rest = await post(filling.url, {
        operation: 'campaigns',
        variables: { ...variables, nextToken: second.body.data.campaigns.nextToken },
      });
      const all = [first, second, rest].flatMap((reply) =>
        reply.body.data.campaigns.items.map((item: { id: string }) => item.id),
      );
      assert.deepEqual(
        all,
        Array.from({ length: all.length }, (_, index) => `camp-sparse-${String(index + 1).padStart(4, '0')}`),
      );
    } finally {
      await filling.close();
      await front.close();
      await sparse.dispose();
    }
  });

  it('"not found" and "no coupon objective" resolver errors (Lambda:Unhandled) are 404 and 422', async () => {
    const unknown = await post(appsync.proxy.url, {
      operation: 'requestCoupon',
      variables: { campaignId: 'camp-nope' },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not_found');
    const noCoupon = await post(appsync.proxy.url, {
      operation: 'requestCoupon',
      variables: { campaignId: survey.id },
    });
    assert.equal(noCoupon.status, 422);
    assert.equal(noCoupon.body.error.code, 'no_coupon_objective');
  });

  it('a document the upstream refuses (Validation error of type …) is 502 upstream_schema_mismatch naming the problem', async () => {
    const hosted = await serveProxy({
      upstreamUrl: appsync.upstream.marketingUrl,
      operations: {
        withTags: {
          kind: 'query',
          variables: { id: { type: 'string', required: true } },
          document: 'query withTags($id: ID!) { campaign(id: $id) { id tags } }',
        },
      },
    });
    try {
      const reply = await post(hosted.url, { operation: 'withTags', variables: { id: coupon.id } });
      assert.equal(reply.status, 502);
      assert.equal(reply.body.error.code, 'upstream_schema_mismatch');
      assert.match(reply.body.error.message, /FieldUndefined.*tags/);
    } finally {
      await hosted.close();
    }
  });

  it('an unknown resolver error stays 502 upstream_error, with the key scrubbed', async () => {
    const reply = await post(appsync.proxy.url, { operation: 'campaign', variables: { id: broken.id } });
    assert.equal(reply.status, 502);
    assert.equal(reply.body.error.code, 'upstream_error');
    assert.ok(!reply.text.includes(TEST_API_KEY));
    assert.match(reply.body.error.message, /\[redacted\]/);
  });

  it('a coupon request answered with errors and no result minted nothing: its Idempotency-Key says so and stays free', async () => {
    const headers = { 'idempotency-key': 'failed-mint-key' };
    const before = appsync.upstream.stats().couponsMinted;
    const first = await post(
      appsync.proxy.url,
      { operation: 'requestCoupon', variables: { campaignId: broken.id } },
      headers,
    );
    assert.equal(first.status, 502);
    assert.doesNotMatch(first.body.error.message, /may have created a coupon|new Idempotency-Key/);
    const again = await post(
      appsync.proxy.url,
      { operation: 'requestCoupon', variables: { campaignId: broken.id } },
      headers,
    );
    assert.equal(again.headers.get('idempotent-replayed'), null, 'tried again, not replayed');
    assert.equal(appsync.upstream.stats().couponsMinted, before);
    // A definite answer (an unknown campaign) is still kept for its key.
    const unknownKey = { 'idempotency-key': 'unknown-campaign-key' };
    await post(appsync.proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-nope' } }, unknownKey);
    const replayed = await post(
      appsync.proxy.url,
      { operation: 'requestCoupon', variables: { campaignId: 'camp-nope' } },
      unknownKey,
    );
    assert.equal(replayed.status, 404);
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  });
});
