import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  appsyncSeed,
  startMarketing,
  type AppSyncSeed,
  type RunningMarketing,
} from '../../../../../src/sandbox/index.ts';
import { CAMPAIGNS, postAppSync, type AppSyncError, type CampaignIdsPage } from '../../../support/appsync.ts';

/** Every error in AppSync's shape: never extensions.code. */
function assertAppSyncShape(errors: AppSyncError[] | undefined): AppSyncError[] {
  assert.ok(errors?.length, 'errors present');
  for (const error of errors) {
    assert.equal((error as { extensions?: unknown }).extensions, undefined);
    assert.equal(typeof error.message, 'string');
  }
  return errors;
}

function seedWithFailures(): AppSyncSeed {
  const seed = appsyncSeed();
  const fail = (id: string, failure: AppSyncSeed['campaigns'][number]['fail']) => {
    seed.campaigns.find((campaign) => campaign.id === id)!.fail = failure;
  };
  fail('camp-harbor-beans', { errorType: 'Lambda:Unhandled' });
  fail('camp-peak-rental', {
    errorType: 'DynamoDB:DynamoDbException',
    message: 'Throughput exceeds the current capacity',
    field: 'content',
  });
  fail('camp-lumen-translated', { errorType: 'Lambda:Unhandled', field: 'featuredImage' });
  seed.businessAccounts.find((account) => account.id === 'biz-greenleaf-market')!.fail = {
    errorType: 'Lambda:Unhandled',
    field: 'logo',
  };
  return seed;
}

describe('Marketing sandbox, appsync flavour: errors and test hooks', () => {
  let marketing: RunningMarketing;
  const gql = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    postAppSync<T>(marketing.marketingUrl, marketing.apiKey, query, variables);

  before(async () => {
    marketing = await startMarketing({
      flavor: 'appsync',
      marketingPort: 0,
      apiKey: 'test-key',
      seed: seedWithFailures(),
    });
  });
  after(() => marketing.close());

  describe('refused before GraphQL', () => {
    it('answers a missing or wrong key with 401 UnauthorizedException', async () => {
      const missing = await postAppSync(marketing.marketingUrl, undefined, '{ campaigns { nextToken } }');
      assert.equal(missing.status, 401);
      assert.deepEqual(missing.body, {
        errors: [{ errorType: 'UnauthorizedException', message: 'Valid authorization header not provided.' }],
      });
      assert.equal(missing.headers.get('x-amzn-errortype'), 'UnauthorizedException');
      const wrong = await postAppSync(marketing.marketingUrl, 'test-kez', '{ campaigns { nextToken } }');
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.body, {
        errors: [{ errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' }],
      });
    });

    it('throttles exactly the next N requests with 429 LimitExceededError, then serves again', async () => {
      marketing.resetStats();
      marketing.throttleNext(2);
      for (let i = 0; i < 2; i += 1) {
        const throttled = await gql(CAMPAIGNS, { limit: 1 });
        assert.equal(throttled.status, 429);
        assert.deepEqual(throttled.body, {
          errors: [{ errorType: 'LimitExceededError', message: 'Rate limit exceeded' }],
        });
      }
      assert.equal((await gql(CAMPAIGNS, { limit: 1 })).status, 200);
      assert.deepEqual(marketing.stats().byOperation, { campaigns: 1 }, 'throttled requests never reached a resolver');
      assert.equal(marketing.stats().graphqlRequests, 3);
      assert.throws(() => marketing.throttleNext(-1), /whole number/);
    });

    it('answers an empty body or one without a query with 400 MalformedHttpRequestException', async () => {
      const send = (body: string) =>
        fetch(marketing.marketingUrl, { method: 'POST', headers: { 'x-api-key': marketing.apiKey }, body });
      const empty = await send('');
      assert.equal(empty.status, 400);
      assert.deepEqual(await empty.json(), {
        errors: [{ errorType: 'MalformedHttpRequestException', message: 'Request body is empty.' }],
      });
      for (const body of ['meow', '{}', '[]', '{"query": 3}']) {
        const response = await send(body);
        assert.equal(response.status, 400, body);
        assert.deepEqual(await response.json(), {
          errors: [{ errorType: 'MalformedHttpRequestException', message: 'Unable to parse GraphQL query.' }],
        });
      }
    });
  });

  describe('request errors: HTTP 200 with data null', () => {
    it('reports validation errors the graphql-java way', async () => {
      const undefinedField = await gql('{ campaigns { items { id price } } }');
      assert.equal(undefinedField.status, 200);
      assert.deepEqual(undefinedField.body, {
        data: null,
        errors: [
          {
            path: null,
            locations: [{ line: 1, column: 26, sourceName: null }],
            message:
              "Validation error of type FieldUndefined: Field 'price' in type 'Campaign' is undefined @ 'campaigns/items/price'",
          },
        ],
      });
      const missingArgument = await gql('{ campaign { id } }');
      assert.equal(missingArgument.body.data, null);
      assert.match(
        assertAppSyncShape(missingArgument.body.errors)[0]!.message,
        /^Validation error of type MissingFieldArgument: .* @ 'campaign'$/,
      );
      const unknownArgument = await gql('{ businessAccounts(filter: { pending: { eq: false } }) { nextToken } }');
      assert.match(
        assertAppSyncShape(unknownArgument.body.errors)[0]!.message,
        /^Validation error of type UnknownArgument: Unknown field argument 'filter' @ 'businessAccounts'$/,
      );
      const wrongType = await gql('{ campaign(id: "x") { content { featuredImage(width: "wide") { url } } } }');
      assert.match(
        assertAppSyncShape(wrongType.body.errors)[0]!.message,
        /^Validation error of type WrongType: .* @ 'campaign\/content\/featuredImage'$/,
      );
      const leaf = await gql('{ campaign(id: "x") }');
      assert.match(
        assertAppSyncShape(leaf.body.errors)[0]!.message,
        /^Validation error of type SubSelectionRequired: /,
      );
    });

    it('reports syntax and variable errors with data null', async () => {
      const syntax = await gql('{ campaigns { items { id }');
      assert.equal(syntax.status, 200);
      assert.equal(syntax.body.data, null);
      assert.match(assertAppSyncShape(syntax.body.errors)[0]!.message, /^Invalid Syntax : /);
      const missing = await gql('query($id: ID!) { campaign(id: $id) { id } }');
      assert.equal(missing.status, 200);
      assert.deepEqual(missing.body, {
        data: null,
        errors: [
          {
            path: null,
            locations: [{ line: 1, column: 7, sourceName: null }],
            message: "Variable 'id' has coerced Null value for NonNull type 'ID!'",
          },
        ],
      });
      const wrong = await gql(CAMPAIGNS, { limit: 'ten' });
      assert.equal(wrong.body.data, null);
      assert.match(assertAppSyncShape(wrong.body.errors)[0]!.message, /^Variable 'limit' has an invalid value/);
    });
  });

  describe('page tokens', () => {
    it('refuses a tampered token with the field null and a DynamoDB errorType', async () => {
      const token = (await gql<CampaignIdsPage>(CAMPAIGNS, { limit: 2 })).body.data!.campaigns!.nextToken!;
      const middle = Math.floor(token.length / 2);
      const tampered = `${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`;
      for (const nextToken of [tampered, 'garbage', `${token}AAAA`]) {
        const response = await gql<CampaignIdsPage>(CAMPAIGNS, { limit: 2, nextToken });
        assert.equal(response.status, 200);
        assert.deepEqual(response.body.data, { campaigns: null });
        const [error] = assertAppSyncShape(response.body.errors);
        assert.deepEqual(
          { path: error!.path, data: error!.data, errorType: error!.errorType, errorInfo: error!.errorInfo },
          { path: ['campaigns'], data: null, errorType: 'DynamoDB:UserIllegalArgumentException', errorInfo: null },
        );
        assert.match(error!.message, /Invalid pagination token given/);
      }
    });

    it('refuses a stale token (another sandbox run) and one from the other list', async () => {
      const other = await startMarketing({ flavor: 'appsync', marketingPort: 0, apiKey: 'k' });
      const stale = (await postAppSync<CampaignIdsPage>(other.marketingUrl, 'k', CAMPAIGNS, { limit: 2 })).body.data!
        .campaigns!.nextToken!;
      await other.close();
      const response = await gql<CampaignIdsPage>(CAMPAIGNS, { limit: 2, nextToken: stale });
      assert.deepEqual(response.body.data, { campaigns: null });
      assert.equal(response.body.errors![0]!.errorType, 'DynamoDB:UserIllegalArgumentException');
      const accountsToken = (
        await gql<{ businessAccounts: { nextToken: string } }>('{ businessAccounts(limit: 1) { nextToken } }')
      ).body.data!.businessAccounts.nextToken;
      assert.deepEqual((await gql<CampaignIdsPage>(CAMPAIGNS, { limit: 2, nextToken: accountsToken })).body.data, {
        campaigns: null,
      });
    });

    it('refuses a limit below 1 as DynamoDB does', async () => {
      const response = await gql<CampaignIdsPage>(CAMPAIGNS, { limit: 0 });
      assert.deepEqual(response.body.data, { campaigns: null });
      assert.equal(response.body.errors![0]!.errorType, 'DynamoDB:DynamoDbException');
      assert.match(response.body.errors![0]!.message, /Member must have value greater than or equal to 1/);
    });
  });

  describe('resolver failures: partial data', () => {
    it('nulls a failed list element and names it in errors[].path, keeping the rest', async () => {
      const response = await gql<CampaignIdsPage>(CAMPAIGNS, { limit: 1000 });
      assert.equal(response.status, 200);
      const items = response.body.data!.campaigns!.items;
      const index = appsyncSeed().campaigns.findIndex((campaign) => campaign.id === 'camp-harbor-beans');
      assert.equal(items[index], null);
      assert.equal(items.filter((item) => item !== null).length, appsyncSeed().campaigns.length - 1);
      const errors = assertAppSyncShape(response.body.errors);
      assert.equal(errors.length, 1);
      assert.deepEqual(errors[0]!.path, ['campaigns', 'items', index]);
      assert.equal(errors[0]!.errorType, 'Lambda:Unhandled');
      assert.equal(errors[0]!.data, null);
      assert.equal(errors[0]!.errorInfo, null);
    });

    it('nulls only the failed field of a record', async () => {
      const response = await gql<{
        campaigns: {
          items: Array<{ id: string; content: { title: string | null; featuredImage: unknown } | null } | null>;
        };
      }>(
        `{ campaigns(filter: { or: [{ id: { eq: "camp-peak-rental" } }, { id: { eq: "camp-lumen-translated" } }] }, limit: 1000) { items { id content { title featuredImage(width: 100) { url } } } } }`,
      );
      const items = response.body.data!.campaigns.items;
      const rental = items.find((item) => item?.id === 'camp-peak-rental')!;
      const translated = items.find((item) => item?.id === 'camp-lumen-translated')!;
      assert.equal(rental.content, null);
      assert.equal(translated.content!.title, 'Translated fiction month');
      assert.equal(translated.content!.featuredImage, null);
      const errors = assertAppSyncShape(response.body.errors);
      const byType = Object.fromEntries(errors.map((error) => [error.errorType, error]));
      assert.deepEqual(byType['DynamoDB:DynamoDbException']!.path, [
        'campaigns',
        'items',
        items.indexOf(rental),
        'content',
      ]);
      assert.equal(byType['DynamoDB:DynamoDbException']!.message, 'Throughput exceeds the current capacity');
      assert.deepEqual(byType['Lambda:Unhandled']!.path, [
        'campaigns',
        'items',
        items.indexOf(translated),
        'content',
        'featuredImage',
      ]);

      const accounts = await gql<{
        businessAccounts: { items: Array<{ id: string; name: string | null; logo: unknown } | null> };
      }>('{ businessAccounts { items { id name logo { url } } } }');
      const greenleaf = accounts.body.data!.businessAccounts.items.find((item) => item?.id === 'biz-greenleaf-market')!;
      assert.equal(greenleaf.name, 'Greenleaf Market');
      assert.equal(greenleaf.logo, null);
      assert.equal(accounts.body.errors!.length, 1);
    });

    it('nulls the campaign root field when that record fails', async () => {
      const response = await gql(
        '{ campaign(id: "camp-harbor-beans") { id } other: campaign(id: "camp-harbor-cupping") { id } }',
      );
      assert.deepEqual(response.body.data, { campaign: null, other: { id: 'camp-harbor-cupping' } });
      assert.deepEqual(assertAppSyncShape(response.body.errors)[0]!.path, ['campaign']);
    });
  });

  describe('requestCoupon', () => {
    const REQUEST = 'mutation($id: ID!) { requestCoupon(campaignId: $id) { coupon { code } } }';

    it('mints a code for a coupon campaign and counts it', async () => {
      const before = marketing.stats().couponsMinted;
      const response = await gql<{ requestCoupon: { coupon: { code: string } } }>(REQUEST, {
        id: 'camp-crumb-sourdough',
      });
      assert.match(response.body.data!.requestCoupon.coupon.code, /^SAVE-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      assert.equal(marketing.stats().couponsMinted, before + 1);
    });

    it('answers an unknown campaign or one without a coupon objective with requestCoupon null and a Lambda error', async () => {
      for (const [id, message] of [
        ['nope', /Campaign not found: nope/],
        ['camp-crumb-survey', /has no coupon objective/],
        ['camp-crumb-no-content', /has no coupon objective/],
      ] as const) {
        const before = marketing.stats().couponsMinted;
        const response = await gql(REQUEST, { id });
        assert.equal(response.status, 200);
        assert.deepEqual(response.body.data, { requestCoupon: null });
        const [error] = assertAppSyncShape(response.body.errors);
        assert.equal(error!.errorType, 'Lambda:Unhandled');
        assert.deepEqual(error!.path, ['requestCoupon']);
        assert.match(error!.message, message);
        assert.equal(marketing.stats().couponsMinted, before);
      }
    });
  });

  describe('introspection', () => {
    it('answers introspection by default and refuses it when disabled, __typename still allowed', async () => {
      assert.equal(
        (await gql<{ __schema: { queryType: { name: string } } }>('{ __schema { queryType { name } } }')).body.data!
          .__schema.queryType.name,
        'Query',
      );
      const closed = await startMarketing({ flavor: 'appsync', marketingPort: 0, apiKey: 'k', introspection: false });
      try {
        for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Campaign") { name } }']) {
          const response = await postAppSync(closed.marketingUrl, 'k', query);
          assert.equal(response.status, 200);
          assert.equal(response.body.data, null);
          assert.match(
            assertAppSyncShape(response.body.errors)[0]!.message,
            /^Validation error of type FieldUndefined: Field '__(schema|type)' in type 'Query' is undefined @ '__(schema|type)'$/,
          );
        }
        const typename = await postAppSync<{ campaigns: { __typename: string } }>(
          closed.marketingUrl,
          'k',
          '{ campaigns(limit: 1) { __typename } }',
        );
        assert.equal(typename.body.data!.campaigns.__typename, 'ModelCampaignConnection');
      } finally {
        await closed.close();
      }
    });
  });

  it('counts upstream requests per root field', async () => {
    marketing.resetStats();
    await gql('{ campaigns(limit: 1) { nextToken } campaign(id: "x") { id } }');
    await gql('{ businessAccounts(limit: 1) { nextToken } }');
    await gql('{ nothing }');
    assert.deepEqual(marketing.stats(), {
      couponsMinted: 0,
      graphqlRequests: 3,
      byOperation: { campaigns: 1, campaign: 1, businessAccounts: 1 },
      // One row for each list of one item.
      rowsRead: 2,
    });
  });
});
