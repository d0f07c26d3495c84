import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSeed, startMarketing, type RunningMarketing } from '../../../../src/sandbox/index.ts';
import { errorCodes, postGraphQL } from '../../support/graphql.ts';

const CAMPAIGNS = /* GraphQL */ `
  query Campaigns($filter: CampaignFilter, $limit: Int, $nextToken: String) {
    campaigns(filter: $filter, limit: $limit, nextToken: $nextToken) {
      items { id businessAccountId content { title featuredImage(width: 640) { url } } }
      nextToken
    }
  }`;

type CampaignPage = {
  campaigns: {
    items: Array<{
      id: string;
      businessAccountId: string;
      content: { title: string; featuredImage: { url: string } | null };
    }>;
    nextToken: string | null;
  };
};

describe('Marketing sandbox', () => {
  let marketing: RunningMarketing;
  const gql = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    postGraphQL<T>(marketing.marketingUrl, marketing.apiKey, query, variables);

  before(async () => {
    marketing = await startMarketing({ marketingPort: 0, apiKey: 'test-key' });
  });
  after(() => marketing.close());

  describe('API key', () => {
    it('refuses a request without x-api-key with 401 and a GraphQL-style error', async () => {
      const response = await postGraphQL(marketing.marketingUrl, undefined, '{ campaigns { nextToken } }');
      assert.equal(response.status, 401);
      assert.deepEqual(errorCodes(response), ['UNAUTHORIZED']);
      assert.match(response.body.errors![0]!.message, /x-api-key/);
    });

    it('refuses a wrong key with 401', async () => {
      const response = await postGraphQL(marketing.marketingUrl, 'test-kez', '{ campaigns { nextToken } }');
      assert.equal(response.status, 401);
      assert.deepEqual(errorCodes(response), ['UNAUTHORIZED']);
    });

    it('checks the key on GET too, then refuses GET with 405', async () => {
      assert.equal((await fetch(`${marketing.marketingUrl}?query={campaign(id:"x"){id}}`)).status, 401);
      const response = await fetch(marketing.marketingUrl, { headers: { 'x-api-key': marketing.apiKey } });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    });
  });

  describe('request errors', () => {
    it('answers a body that is not JSON with 400', async () => {
      const response = await fetch(marketing.marketingUrl, {
        method: 'POST',
        headers: { 'x-api-key': marketing.apiKey },
        body: 'query { campaigns }',
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { errors: unknown[] };
      assert.equal(body.errors.length, 1);
    });

    it('answers a document that does not parse with 400', async () => {
      const response = await gql('{ campaigns { items { id }');
      assert.equal(response.status, 400);
      assert.deepEqual(errorCodes(response), ['GRAPHQL_PARSE_FAILED']);
    });

    it('answers a document that does not validate with 400', async () => {
      const response = await gql('{ campaigns { items { id price } } }');
      assert.equal(response.status, 400);
      assert.deepEqual(errorCodes(response), ['GRAPHQL_VALIDATION_FAILED']);
      assert.match(response.body.errors![0]!.message, /price/);
    });

    it('answers variables of the wrong type with 400', async () => {
      const response = await gql(CAMPAIGNS, { limit: 'ten' });
      assert.equal(response.status, 400);
      assert.equal(response.body.data, undefined);
    });

    it('answers a body over 100 kB with 413', async () => {
      const response = await gql(`{ campaign(id: "${'x'.repeat(110_000)}") { id } }`);
      assert.equal(response.status, 413);
    });
  });

  describe('campaigns', () => {
    it('walks every page with nextToken, in a stable order, without repeats', async () => {
      const seen: string[] = [];
      let nextToken: string | null = null;
      let pages = 0;
      do {
        const response: Awaited<ReturnType<typeof gql<CampaignPage>>> = await gql<CampaignPage>(CAMPAIGNS, {
          limit: 4,
          nextToken,
        });
        assert.equal(response.status, 200);
        assert.equal(response.body.errors, undefined);
        const page = response.body.data!.campaigns;
        assert.ok(page.items.length <= 4);
        seen.push(...page.items.map((item) => item.id));
        nextToken = page.nextToken;
        pages += 1;
      } while (nextToken);
      const all = defaultSeed().campaigns.map((campaign) => campaign.id);
      assert.ok(all.length >= 15);
      assert.deepEqual(seen, all);
      assert.equal(pages, Math.ceil(all.length / 4));
    });

    it('filters by businessAccountId across pages', async () => {
      const filter = { businessAccountId: { eq: 'biz-harbor-coffee' } };
      const first = (await gql<CampaignPage>(CAMPAIGNS, { filter, limit: 3 })).body.data!.campaigns;
      assert.equal(first.items.length, 3);
      assert.ok(first.nextToken);
      const second = (await gql<CampaignPage>(CAMPAIGNS, { filter, limit: 3, nextToken: first.nextToken })).body.data!
        .campaigns;
      assert.equal(second.nextToken, null);
      const ids = [...first.items, ...second.items];
      assert.ok(ids.every((item) => item.businessAccountId === 'biz-harbor-coffee'));
      assert.equal(
        ids.length,
        defaultSeed().campaigns.filter((c) => c.businessAccountId === 'biz-harbor-coffee').length,
      );
    });

    it('returns an empty last page with a null nextToken for an unknown business account', async () => {
      const page = (await gql<CampaignPage>(CAMPAIGNS, { filter: { businessAccountId: { eq: 'nobody' } } })).body.data!
        .campaigns;
      assert.deepEqual(page, { items: [], nextToken: null });
    });

    it('defaults limit to 10 and accepts 50, refuses 0 and 51 with BAD_USER_INPUT', async () => {
      assert.equal((await gql<CampaignPage>(CAMPAIGNS)).body.data!.campaigns.items.length, 10);
      assert.equal((await gql<CampaignPage>(CAMPAIGNS, { limit: 50 })).body.data!.campaigns.nextToken, null);
      for (const limit of [0, -1, 51]) {
        const response = await gql(CAMPAIGNS, { limit });
        assert.equal(response.status, 200);
        assert.equal(response.body.data, null);
        assert.deepEqual(errorCodes(response), ['BAD_USER_INPUT']);
        assert.match(response.body.errors![0]!.message, /limit/);
      }
    });

    it('refuses a tampered, foreign or garbage nextToken with BAD_USER_INPUT', async () => {
      const token = (await gql<CampaignPage>(CAMPAIGNS, { limit: 2 })).body.data!.campaigns.nextToken!;
      const [payload, mac] = token.split('.');
      const forged = `${Buffer.from(JSON.stringify({ o: 12 })).toString('base64url')}.${mac}`;
      const otherFilter = { filter: { businessAccountId: { eq: 'biz-harbor-coffee' } }, nextToken: token };
      for (const variables of [
        { nextToken: forged },
        { nextToken: `${payload}.x${mac}` },
        { nextToken: 'garbage' },
        { nextToken: '' },
        otherFilter,
      ]) {
        const response = await gql(CAMPAIGNS, variables);
        assert.equal(response.status, 200, JSON.stringify(variables));
        assert.deepEqual(errorCodes(response), ['BAD_USER_INPUT'], JSON.stringify(variables));
      }
    });

    it('refuses a nextToken from another sandbox', async () => {
      const other = await startMarketing({ marketingPort: 0, apiKey: 'test-key' });
      try {
        const token = (await postGraphQL<CampaignPage>(other.marketingUrl, 'test-key', CAMPAIGNS, { limit: 2 })).body
          .data!.campaigns.nextToken;
        assert.deepEqual(errorCodes(await gql(CAMPAIGNS, { nextToken: token })), ['BAD_USER_INPUT']);
      } finally {
        await other.close();
      }
    });
  });

  describe('campaign', () => {
    const CAMPAIGN = /* GraphQL */ `
      query Campaign($id: ID!, $width: Int!) {
        campaign(id: $id) {
          id
          content {
            title subtitle description
            featuredImage(width: $width) { url }
            objective { __typename ... on CouponObjective { price } ... on VisitObjective { visitsRequired reward } }
          }
        }
      }`;

    it('returns every content field, with the objective selected by inline fragment', async () => {
      const response = await gql(CAMPAIGN, { id: 'camp-harbor-morning-latte', width: 800 });
      assert.deepEqual(response.body, {
        data: {
          campaign: {
            id: 'camp-harbor-morning-latte',
            content: {
              title: 'Morning latte for less',
              subtitle: 'Before 10 am, every weekday',
              description:
                'Show your coupon at the counter and get any size latte at the small price. Oat and almond milk included.',
              featuredImage: { url: `${marketing.origin}/images/camp-harbor-morning-latte.svg?w=800` },
              objective: { __typename: 'CouponObjective', price: '2.50' },
            },
          },
        },
      });
      const visit = await gql<{ campaign: { content: { objective: unknown } } }>(CAMPAIGN, {
        id: 'camp-harbor-tenth-cup',
        width: 10,
      });
      assert.deepEqual(visit.body.data!.campaign.content.objective, {
        __typename: 'VisitObjective',
        visitsRequired: 10,
        reward: 'Any drink, any size',
      });
    });

    it('returns null for an unknown id', async () => {
      assert.deepEqual((await gql(CAMPAIGN, { id: 'camp-nope', width: 100 })).body, { data: { campaign: null } });
    });

    it('refuses a featuredImage width outside 1..4096 with BAD_USER_INPUT', async () => {
      for (const width of [0, 4097]) {
        const response = await gql(CAMPAIGN, { id: 'camp-harbor-morning-latte', width });
        assert.deepEqual(errorCodes(response), ['BAD_USER_INPUT']);
      }
    });
  });

  describe('businessAccounts', () => {
    const ACCOUNTS = /* GraphQL */ `
      query Accounts($filter: BusinessAccountFilter, $limit: Int, $nextToken: String) {
        businessAccounts(filter: $filter, limit: $limit, nextToken: $nextToken) {
          items { id name websiteUrl address { streetAddress postalCode city } description phoneNumber category logo { url } pending customProperties { key value } }
          nextToken
        }
      }`;
    type Accounts = {
      businessAccounts: {
        items: Array<{ id: string; pending: boolean; logo: { url: string } }>;
        nextToken: string | null;
      };
    };

    it('lists every field of every account, the pending one included', async () => {
      const page = (await gql<Accounts>(ACCOUNTS)).body.data!.businessAccounts;
      assert.ok(page.items.length >= 4);
      assert.ok(page.items.some((account) => account.pending));
      assert.equal(page.items[0]!.logo.url, `${marketing.origin}/images/${page.items[0]!.id}.svg?w=256`);
    });

    it('filters out pending accounts and pages through them', async () => {
      const first = (await gql<Accounts>(ACCOUNTS, { filter: { pending: { eq: false } }, limit: 2 })).body.data!
        .businessAccounts;
      assert.ok(first.items.every((account) => !account.pending));
      const second = (
        await gql<Accounts>(ACCOUNTS, { filter: { pending: { eq: false } }, limit: 2, nextToken: first.nextToken })
      ).body.data!.businessAccounts;
      assert.ok(second.items.every((account) => !account.pending));
      const approved = defaultSeed().businessAccounts.filter((account) => !account.pending).length;
      assert.equal(first.items.length + second.items.length, Math.min(approved, 4));
    });
  });

  describe('requestCoupon', () => {
    const REQUEST_COUPON =
      'mutation Claim($campaignId: ID!) { requestCoupon(campaignId: $campaignId) { coupon { code } } }';
    type Claimed = { requestCoupon: { coupon: { code: string } } };

    it('mints a new unique code on every call and counts it', async () => {
      marketing.resetStats();
      const codes = new Set<string>();
      for (let i = 0; i < 20; i += 1) {
        const response = await gql<Claimed>(REQUEST_COUPON, { campaignId: 'camp-harbor-free-pastry' });
        const code = response.body.data!.requestCoupon.coupon.code;
        assert.match(code, /^SAVE-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
        codes.add(code);
      }
      assert.equal(codes.size, 20);
      const stats = marketing.stats();
      assert.equal(stats.couponsMinted, 20);
      assert.equal(stats.graphqlRequests, 20);
      assert.deepEqual(stats.byOperation, { requestCoupon: 20 });
    });

    it('refuses a campaign without a coupon objective with NO_COUPON_OBJECTIVE', async () => {
      marketing.resetStats();
      const response = await gql(REQUEST_COUPON, { campaignId: 'camp-harbor-tenth-cup' });
      assert.equal(response.body.data, null);
      assert.deepEqual(errorCodes(response), ['NO_COUPON_OBJECTIVE']);
      assert.deepEqual(errorCodes(await gql(REQUEST_COUPON, { campaignId: 'camp-harbor-cupping' })), [
        'NO_COUPON_OBJECTIVE',
      ]);
      assert.equal(marketing.stats().couponsMinted, 0);
    });

    it('refuses an unknown campaign with NOT_FOUND', async () => {
      const response = await gql(REQUEST_COUPON, { campaignId: 'camp-nope' });
      assert.deepEqual(errorCodes(response), ['NOT_FOUND']);
      assert.match(response.body.errors![0]!.message, /camp-nope/);
    });
  });

  describe('schema', () => {
    it('answers introspection with the documented types', async () => {
      const response = await gql<{ __type: { possibleTypes: Array<{ name: string }> } }>(
        '{ __type(name: "CampaignObjective") { possibleTypes { name } } }',
      );
      assert.deepEqual(response.body.data!.__type.possibleTypes.map((type) => type.name).sort(), [
        'CouponObjective',
        'VisitObjective',
      ]);
    });

    it('refuses several operations without an operationName with 400', async () => {
      const response = await gql('query A { campaign(id: "x") { id } } query B { campaign(id: "y") { id } }');
      assert.equal(response.status, 400);
      assert.match(response.body.errors![0]!.message, /operationName/);
    });
  });

  describe('stats', () => {
    it('counts requests per root field and resets', async () => {
      marketing.resetStats();
      await gql('{ a: campaigns { nextToken } campaign(id: "x") { id } }');
      await gql(CAMPAIGNS);
      await postGraphQL(marketing.marketingUrl, 'wrong', CAMPAIGNS);
      await gql('{ campaigns {');
      // Authenticated requests count even when invalid (they reached the server); unauthenticated ones do not.
      assert.deepEqual(marketing.stats(), {
        couponsMinted: 0,
        graphqlRequests: 3,
        byOperation: { campaigns: 2, campaign: 1 },
        rowsRead: 0,
      });
      marketing.resetStats();
      assert.deepEqual(marketing.stats(), { couponsMinted: 0, graphqlRequests: 0, byOperation: {}, rowsRead: 0 });
    });
  });
});
