/**
 * The proxy against the sandbox's appsync flavour (AppSync with Amplify resolvers, graphql-java error
 * shapes) over real HTTP: the documents it chooses from the introspected schema, and, with
 * introspection switched off, literal documents that still serve every operation and write hostile
 * ids exactly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appsyncSeed, startMarketing, type RunningMarketing } from '../../../../src/sandbox/index.ts';
import { fetchTransport, type UpstreamTransport } from '../../../../src/proxy/index.ts';
import { temporaryDataDir } from '../../support/connect.ts';
import { post, serveProxy, TEST_API_KEY, type ProxyUnderTest } from '../../support/proxy-server.ts';

type Sent = { query: string; variables: Record<string, unknown> };

function recording(sent: Sent[]): UpstreamTransport {
  const transport = fetchTransport((input, init) => fetch(input, init));
  return (request) => {
    sent.push(JSON.parse(request.body) as Sent);
    return transport(request);
  };
}

const lastSent = (sent: Sent[]) => sent.filter((request) => !request.query.includes('__schema')).at(-1)!;

/** A campaign id no one would choose: quotes, backslashes, a newline, GraphQL punctuation, non-ASCII. */
const HOSTILE_ID = 'camp-"x"\\y\n} ) { __typename } #é😀';

async function startAppSync(introspection: boolean) {
  const data = await temporaryDataDir();
  const seed = appsyncSeed();
  const coupon = seed.campaigns.find((campaign) => campaign.content?.objective?.type === 'coupon')!;
  seed.campaigns.push({ ...structuredClone(coupon), id: HOSTILE_ID });
  const marketing = await startMarketing({
    flavor: 'appsync',
    marketingPort: 0,
    dataDir: data.dir,
    apiKey: TEST_API_KEY,
    introspection,
    seed,
  });
  return { marketing, dispose: async () => (await marketing.close(), await data.remove()) };
}

for (const introspection of [true, false]) {
  describe(`Marketing proxy against the appsync flavour, introspection ${introspection ? 'on' : 'off'}`, () => {
    let upstream: { marketing: RunningMarketing; dispose(): Promise<void> };
    let proxy: ProxyUnderTest;
    const sent: Sent[] = [];
    before(async () => {
      upstream = await startAppSync(introspection);
      proxy = await serveProxy({
        upstreamUrl: upstream.marketing.marketingUrl,
        cache: false,
        transport: recording(sent),
      });
    });
    after(async () => {
      await proxy.close();
      await upstream.dispose();
    });

    it('serves campaigns of one business account', async () => {
      const reply = await post(proxy.url, {
        operation: 'campaigns',
        variables: { businessAccountId: 'biz-harbor-coffee', limit: 3 },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.ok(reply.body.data.campaigns.items.length > 0);
      assert.ok(
        reply.body.data.campaigns.items.every(
          (item: { businessAccountId: string }) => item.businessAccountId === 'biz-harbor-coffee',
        ),
      );
      // The last of the upstream pages that filled this one (AppSync filters after the limit).
      const request = lastSent(sent);
      if (introspection) {
        assert.match(
          request.query,
          /^query campaigns\(\$filter: ModelCampaignFilterInput, \$limit: Int(, \$nextToken: String)?\) \{ campaigns\(filter: \$filter, limit: \$limit/,
        );
        assert.deepEqual(request.variables.filter, { businessAccountId: { eq: 'biz-harbor-coffee' } });
      } else {
        assert.match(
          request.query,
          /^query campaigns \{ campaigns\(filter: \{ businessAccountId: \{ eq: "biz-harbor-coffee" \} \}, limit: \d+/,
        );
        assert.deepEqual(request.variables, {});
      }
    });

    it('serves one campaign and a coupon, the id written exactly however hostile', async () => {
      const one = await post(proxy.url, { operation: 'campaign', variables: { id: HOSTILE_ID } });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.data.campaign.id, HOSTILE_ID);
      assert.match(
        lastSent(sent).query,
        introspection
          ? /^query campaign\(\$id: ID!\)/
          : /^query campaign \{ campaign\(id: "camp-\\"x\\"\\\\y\\u000a\} \) \{ __typename \} #\\u00e9\\ud83d\\ude00"\)/,
      );
      const coupon = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: HOSTILE_ID } });
      assert.equal(coupon.status, 200, coupon.text);
      assert.ok(coupon.body.data.requestCoupon.coupon.code);
      assert.match(
        lastSent(sent).query,
        introspection
          ? /^mutation requestCoupon\(\$campaignId: ID!\)/
          : /^mutation requestCoupon \{ requestCoupon\(campaignId: "/,
      );
    });

    it('serves business accounts, and refuses a category the upstream cannot filter by', async () => {
      const accounts = await post(proxy.url, { operation: 'businessAccounts', variables: { limit: 5 } });
      assert.equal(accounts.status, 200, accounts.text);
      assert.ok(accounts.body.data.businessAccounts.items.length > 0);
      assert.doesNotMatch(lastSent(sent).query, /filter/);
      const before = sent.length;
      const byCategory = await post(proxy.url, { operation: 'businessAccounts', variables: { category: 'Cafe' } });
      if (introspection) {
        assert.equal(byCategory.status, 400);
        assert.equal(byCategory.body.error.code, 'unsupported_variable');
        assert.equal(sent.length, before, 'refused without asking the upstream');
      } else {
        // Without a schema the proxy cannot know; the upstream's refusal says what is wrong.
        assert.equal(byCategory.status, 502);
        assert.equal(byCategory.body.error.code, 'upstream_schema_mismatch');
      }
    });

    it(
      introspection ? 'reads the schema once' : 'asks for the schema once and says once that it uses literals',
      async () => {
        assert.equal(sent.filter((request) => request.query.includes('__schema')).length, 1);
        const schemaLogs = proxy.logs.filter((entry) => entry.method === 'SCHEMA');
        assert.equal(schemaLogs.length, introspection ? 0 : 1);
      },
    );
  });
}
