/**
 * The proxy's documents fit the upstream's schema, over real HTTP with real graphql-js: the default
 * sandbox (same shapes as before), an Amplify-shaped API (`ID!`, `ModelCampaignFilterInput` with
 * `ModelIDInput`, no filter on businessAccounts, fewer fields), one with introspection switched off
 * (literal values, escaped), and one redeployed behind the same URL (the schema is read again).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fetchTransport, type UpstreamTransport } from '../../../../src/proxy/index.ts';
import {
  post,
  serveProxy,
  startFakeUpstream,
  startUpstream,
  type ProxyUnderTest,
  type Upstream,
} from '../../support/proxy-server.ts';
import {
  AMPLIFY_SDL,
  REDEPLOYED_SDL,
  SCHEMA_UPSTREAM_KEY,
  startSchemaUpstream,
  type SchemaUpstream,
} from '../../support/schema-upstream.ts';

/** The real fetch transport, keeping each request body it sends. */
function recording(sent: { query: string; variables: Record<string, unknown> }[]): UpstreamTransport {
  const transport = fetchTransport((input, init) => fetch(input, init));
  return (request) => {
    sent.push(JSON.parse(request.body) as (typeof sent)[number]);
    return transport(request);
  };
}

/** Amplify-shaped, with every field and filter the spec names (literal documents ask for all of them). */
const EVERY_SPEC_FIELD_SDL = `${AMPLIFY_SDL.replace(
  'businessAccounts(',
  'businessAccounts(filter: ModelBusinessAccountFilterInput, ',
).replace(
  'pending: Boolean }',
  'pending: Boolean phoneNumber: String customProperties: [CustomProperty] }',
)} input ModelBusinessAccountFilterInput { category: ModelStringInput } type CustomProperty { key: String! value: String }`;

type Sent = { query: string; variables?: Record<string, unknown> };
const lastSent = (requests: Sent[]): Sent => requests.filter((request) => !request.query.includes('__schema')).at(-1)!;

describe('Marketing proxy documents fitted to the upstream schema', () => {
  describe('the default sandbox', () => {
    let upstream: Upstream;
    let proxy: ProxyUnderTest;
    const sent: { query: string; variables: Record<string, unknown> }[] = [];
    before(async () => {
      upstream = await startUpstream();
      proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, cache: false, transport: recording(sent) });
    });
    after(async () => {
      await proxy.close();
      await upstream.dispose();
    });

    it('sends the documents it always sent, typed as the sandbox types its arguments', async () => {
      const one = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.data.campaign.id, 'camp-harbor-beans');
      assert.match(
        lastSent(sent).query,
        /^query campaign\(\$id: ID!\) \{ campaign\(id: \$id\) \{ id businessAccountId content \{ title subtitle description img320: featuredImage\(width: 320\) \{ url \}/,
      );
      assert.match(lastSent(sent).query, /objective \{ __typename \.\.\. on CouponObjective \{ price \} \}/);

      const page = await post(proxy.url, {
        operation: 'campaigns',
        variables: { businessAccountId: 'biz-harbor-coffee', limit: 2 },
      });
      assert.equal(page.status, 200, page.text);
      assert.ok(
        page.body.data.campaigns.items.every(
          (item: { businessAccountId: string }) => item.businessAccountId === 'biz-harbor-coffee',
        ),
      );
      assert.match(
        lastSent(sent).query,
        /^query campaigns\(\$filter: CampaignFilter, \$limit: Int\) \{ campaigns\(filter: \$filter, limit: \$limit\) \{ items \{/,
      );
      assert.deepEqual(lastSent(sent).variables, {
        filter: { businessAccountId: { eq: 'biz-harbor-coffee' } },
        limit: 2,
      });

      const accounts = await post(proxy.url, {
        operation: 'businessAccounts',
        variables: { category: 'Cafe', limit: 5 },
      });
      assert.equal(accounts.status, 200, accounts.text);
      assert.ok(accounts.body.data.businessAccounts.items.length > 0);
      assert.match(lastSent(sent).query, /\$filter: BusinessAccountFilter/);
      assert.equal(sent.filter((request) => request.query.includes('__schema')).length, 1, 'the schema is read once');
    });
  });

  describe('an Amplify-shaped upstream', () => {
    let upstream: SchemaUpstream;
    let proxy: ProxyUnderTest;
    before(async () => {
      upstream = await startSchemaUpstream(AMPLIFY_SDL);
      proxy = await serveProxy({ upstreamUrl: upstream.url, apiKey: SCHEMA_UPSTREAM_KEY, cache: false });
    });
    after(async () => {
      await proxy.close();
      await upstream.close();
    });

    it("filters campaigns with the upstream's own filter types (ModelCampaignFilterInput, ModelIDInput)", async () => {
      const reply = await post(proxy.url, {
        operation: 'campaigns',
        variables: { businessAccountId: 'biz-9', limit: 2 },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(
        reply.body.data.campaigns.items.map((item: { businessAccountId: string }) => item.businessAccountId),
        ['biz-9', 'biz-9'],
      );
      const request = lastSent(upstream.requests);
      assert.match(request.query, /^query campaigns\(\$filter: ModelCampaignFilterInput, \$limit: Int\)/);
      assert.deepEqual(request.variables, { filter: { businessAccountId: { eq: 'biz-9' } }, limit: 2 });
    });

    it('asks for one campaign by ID!, with its coupon objective', async () => {
      const reply = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-7' } });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body.data.campaign.content.objective, { __typename: 'CouponObjective', price: '4.5' });
      assert.equal(reply.body.data.campaign.content.img640.url, 'https://images.example/camp-7?w=640');
      assert.match(lastSent(upstream.requests).query, /^query campaign\(\$id: ID!\)/);
    });

    it('leaves out the account fields the upstream lacks and still answers them, empty', async () => {
      const reply = await post(proxy.url, { operation: 'businessAccounts', variables: { limit: 1 } });
      assert.equal(reply.status, 200, reply.text);
      const [account] = reply.body.data.businessAccounts.items;
      assert.equal(account.name, 'Harbor Coffee');
      assert.equal(account.phoneNumber, '');
      assert.deepEqual(account.customProperties, []);
      assert.doesNotMatch(lastSent(upstream.requests).query, /phoneNumber|customProperties|filter/);
    });

    it('refuses a category filter the upstream cannot apply, without asking it', async () => {
      const before = upstream.requests.length;
      const reply = await post(proxy.url, { operation: 'businessAccounts', variables: { category: 'Cafe' } });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'unsupported_variable');
      assert.match(reply.body.error.message, /category/);
      assert.equal(upstream.requests.length, before);
    });

    it('leaves out a limit the upstream does not take, rather than refuse the call', async () => {
      const noLimit = await startSchemaUpstream(
        AMPLIFY_SDL.replace('businessAccounts(limit: Int, nextToken: String)', 'businessAccounts(nextToken: String)'),
      );
      const noLimitProxy = await serveProxy({ upstreamUrl: noLimit.url, apiKey: SCHEMA_UPSTREAM_KEY, cache: false });
      try {
        const reply = await post(noLimitProxy.url, { operation: 'businessAccounts', variables: { limit: 5 } });
        assert.equal(reply.status, 200, reply.text);
        assert.match(lastSent(noLimit.requests).query, /^query businessAccounts \{ businessAccounts \{ items \{/);
      } finally {
        await noLimitProxy.close();
        await noLimit.close();
      }
    });

    it('requests a coupon with campaignId as ID!', async () => {
      const reply = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-7' } });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.data.requestCoupon.coupon.code, 'CODE:camp-7');
      assert.match(lastSent(upstream.requests).query, /^mutation requestCoupon\(\$campaignId: ID!\)/);
      assert.equal(upstream.introspections(), 1);
    });
  });

  describe('an upstream with introspection switched off', () => {
    let upstream: SchemaUpstream;
    let proxy: ProxyUnderTest;
    before(async () => {
      upstream = await startSchemaUpstream(EVERY_SPEC_FIELD_SDL, { introspection: false });
      proxy = await serveProxy({ upstreamUrl: upstream.url, apiKey: SCHEMA_UPSTREAM_KEY, cache: false });
    });
    after(async () => {
      await proxy.close();
      await upstream.close();
    });

    it('serves every operation with literal values and no upstream type names, and says so in the log once', async () => {
      const calls = [
        { operation: 'campaigns', variables: { businessAccountId: 'biz-3', limit: 1 } },
        { operation: 'campaign', variables: { id: 'camp-1' } },
        { operation: 'businessAccounts', variables: { category: 'Bakery', limit: 1 } },
        { operation: 'requestCoupon', variables: { campaignId: 'camp-1' } },
      ];
      for (const call of calls) {
        const reply = await post(proxy.url, call);
        assert.equal(reply.status, 200, `${call.operation}: ${reply.text}`);
        const request = lastSent(upstream.requests);
        assert.doesNotMatch(request.query, /\$|ID!|String!|Model/, request.query);
        assert.deepEqual(request.variables, {});
      }
      assert.match(
        lastSent(upstream.requests.slice(0, -3)).query,
        /campaigns\(filter: \{ businessAccountId: \{ eq: "biz-3" \} \}, limit: 1\)/,
      );
      assert.equal(upstream.introspections(), 1, 'not asked again on every request');
      const schemaLogs = proxy.logs.filter((entry) => entry.method === 'SCHEMA');
      assert.equal(schemaLogs.length, 1);
      assert.equal(schemaLogs[0]!.error, 'introspection_unavailable');
      assert.match(schemaLogs[0]!.detail!, /literal values/);
    });

    it('writes hostile values as exact GraphQL string literals', async () => {
      const hostile = 'a"b\\c\n\t} ) { __typename } é\u0000\u2028😀\u{10FFFF}" #';
      const one = await post(proxy.url, { operation: 'campaign', variables: { id: hostile } });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.data.campaign.id, hostile);
      const page = await post(proxy.url, {
        operation: 'campaigns',
        variables: { businessAccountId: hostile, limit: 1 },
      });
      assert.equal(page.body.data.campaigns.items[0].businessAccountId, hostile);
      const coupon = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: hostile } });
      assert.equal(coupon.body.data.requestCoupon.coupon.code, `CODE:${hostile}`);
      assert.ok(/^[\x20-\x7e]*$/.test(lastSent(upstream.requests).query), 'only printable ASCII in the document');
    });

    it('refuses text that is not valid Unicode (a lone surrogate)', async () => {
      const reply = await post(proxy.url, '{"operation":"campaign","variables":{"id":"x\\ud800y"}}');
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'invalid_variables');
    });
  });

  describe('a schema that changes behind the same URL', () => {
    it('reads the schema again after the upstream refuses a document, and tries once more', async () => {
      const upstream = await startSchemaUpstream(AMPLIFY_SDL);
      const proxy = await serveProxy({
        upstreamUrl: upstream.url,
        apiKey: SCHEMA_UPSTREAM_KEY,
        cache: false,
        introspection: { minIntervalMs: 0 },
      });
      try {
        assert.equal((await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-1' } })).status, 200);
        upstream.setSchema(REDEPLOYED_SDL);
        const reply = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-1' } });
        assert.equal(reply.status, 200, reply.text);
        assert.equal(upstream.introspections(), 2);
        assert.match(lastSent(upstream.requests).query, /^query campaign\(\$id: String!\)/);
        const content = reply.body.data.campaign.content;
        assert.deepEqual(content.objective, { __typename: 'VisitObjective' }, 'no CouponObjective member: no fragment');
        assert.equal(content.subtitle, '');
        assert.doesNotMatch(lastSent(upstream.requests).query, /subtitle/);
        assert.equal(content.img320.url, 'https://images.example/camp-1?w=any', 'featuredImage without width');
        const accounts = await post(proxy.url, { operation: 'businessAccounts', variables: { category: 'Bakery' } });
        assert.equal(accounts.status, 200, accounts.text);
        assert.equal(accounts.body.data.businessAccounts.items[0].category, 'Bakery');
        const coupon = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-1' } });
        assert.equal(coupon.body.data.requestCoupon.coupon.code, 'CODE:camp-1');
      } finally {
        await proxy.close();
        await upstream.close();
      }
    });

    it('reads it again when the schema it has says an operation cannot work, so a fixed API is noticed', async () => {
      const upstream = await startSchemaUpstream(
        AMPLIFY_SDL.replace(/type Mutation \{[^}]*\}/, 'type Mutation { ping: String }'),
      );
      const proxy = await serveProxy({
        upstreamUrl: upstream.url,
        apiKey: SCHEMA_UPSTREAM_KEY,
        cache: false,
        introspection: { minIntervalMs: 0 },
      });
      try {
        const broken = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-1' } });
        assert.equal(broken.status, 502);
        assert.equal(broken.body.error.code, 'upstream_schema_mismatch');
        assert.match(broken.body.error.message, /Mutation\.requestCoupon does not exist/);
        upstream.setSchema(AMPLIFY_SDL);
        const fixed = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-1' } });
        assert.equal(fixed.status, 200, fixed.text);
        assert.equal(fixed.body.data.requestCoupon.coupon.code, 'CODE:camp-1');
      } finally {
        await proxy.close();
        await upstream.close();
      }
    });

    it('does not read it again within the floor: the refused call fails, the upstream is not asked for its schema on every request', async () => {
      const upstream = await startSchemaUpstream(AMPLIFY_SDL);
      const proxy = await serveProxy({ upstreamUrl: upstream.url, apiKey: SCHEMA_UPSTREAM_KEY, cache: false });
      try {
        assert.equal((await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-1' } })).status, 200);
        upstream.setSchema(REDEPLOYED_SDL);
        for (let index = 0; index < 3; index += 1) {
          const reply = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-1' } });
          assert.equal(reply.status, 502);
          assert.match(reply.body.error.message, /Validation error/);
        }
        assert.equal(upstream.introspections(), 1);
      } finally {
        await proxy.close();
        await upstream.close();
      }
    });

    it('asks an upstream that refuses introspection only once, even without a floor, and one that failed to answer again', async () => {
      const refusing = await startSchemaUpstream(EVERY_SPEC_FIELD_SDL, { introspection: false });
      const proxy = await serveProxy({
        upstreamUrl: refusing.url,
        apiKey: SCHEMA_UPSTREAM_KEY,
        cache: false,
        introspection: { minIntervalMs: 0 },
      });
      let failNext = true;
      const flaky = await startSchemaUpstream(AMPLIFY_SDL);
      const flakyFront = await startFakeUpstream(async (req, res) => {
        let body = '';
        for await (const chunk of req) body += chunk;
        if (failNext && body.includes('__schema')) {
          failNext = false;
          res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
          return;
        }
        const forwarded = await fetch(flaky.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': SCHEMA_UPSTREAM_KEY },
          body,
        });
        res.writeHead(forwarded.status, { 'content-type': 'application/json' }).end(await forwarded.text());
      });
      const flakyProxy = await serveProxy({
        upstreamUrl: flakyFront.url,
        apiKey: SCHEMA_UPSTREAM_KEY,
        cache: false,
        introspection: { minIntervalMs: 0 },
      });
      try {
        for (let index = 0; index < 3; index += 1) {
          assert.equal((await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-1' } })).status, 200);
        }
        assert.equal(refusing.introspections(), 1);
        assert.equal((await post(flakyProxy.url, { operation: 'campaign', variables: { id: 'camp-1' } })).status, 200);
        assert.doesNotMatch(lastSent(flaky.requests).query, /\$id/, 'no schema yet: literals');
        assert.equal((await post(flakyProxy.url, { operation: 'campaign', variables: { id: 'camp-1' } })).status, 200);
        assert.match(lastSent(flaky.requests).query, /^query campaign\(\$id: ID!\)/, 'asked again, and fitted');
        assert.deepEqual(
          flakyProxy.logs.filter((entry) => entry.method === 'SCHEMA').map((entry) => entry.error),
          ['introspection_unavailable', undefined],
        );
      } finally {
        await proxy.close();
        await refusing.close();
        await flakyProxy.close();
        await flakyFront.close();
        await flaky.close();
      }
    });

    it('shares one reading among concurrent first requests, and reads a failing upstream once per floor', async () => {
      const upstream = await startSchemaUpstream(AMPLIFY_SDL);
      const proxy = await serveProxy({ upstreamUrl: upstream.url, apiKey: SCHEMA_UPSTREAM_KEY, cache: false });
      let asked = 0;
      const down = await startFakeUpstream((_req, res) => {
        asked += 1;
        res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
      });
      const downProxy = await serveProxy({ upstreamUrl: down.url, cache: false });
      try {
        const replies = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            post(proxy.url, { operation: 'campaign', variables: { id: `camp-${index}` } }),
          ),
        );
        assert.ok(replies.every((reply) => reply.status === 200));
        assert.equal(upstream.introspections(), 1);
        for (let index = 0; index < 3; index += 1) {
          assert.equal((await post(downProxy.url, { operation: 'campaigns' })).status, 502);
        }
        assert.equal(asked, 4, 'one schema reading, then three operations');
      } finally {
        await proxy.close();
        await upstream.close();
        await downProxy.close();
        await down.close();
      }
    });
  });
});
