import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  APPSYNC_DEFAULT_LIMIT,
  appsyncSeed,
  startMarketing,
  startSandbox,
  type RunningMarketing,
} from '../../../../../src/sandbox/index.ts';
import { CAMPAIGNS, postAppSync, type CampaignIdsPage } from '../../../support/appsync.ts';
import { temporaryDataDir } from '../../../support/connect.ts';

const HARBOR = { businessAccountId: { eq: 'biz-harbor-coffee' } };

describe('Marketing sandbox, appsync flavour: schema and paging', () => {
  let marketing: RunningMarketing;
  const gql = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    postAppSync<T>(marketing.marketingUrl, marketing.apiKey, query, variables);
  const page = async (variables: Record<string, unknown>) => {
    const response = await gql<CampaignIdsPage>(CAMPAIGNS, variables);
    assert.equal(response.status, 200);
    assert.equal(response.body.errors, undefined);
    return response.body.data!.campaigns!;
  };

  before(async () => {
    marketing = await startMarketing({ flavor: 'appsync', marketingPort: 0, apiKey: 'test-key' });
  });
  after(() => marketing.close());

  it('serves Amplify-shaped types under the spec root field names', async () => {
    const type = async (name: string) =>
      (
        await gql<{
          __type: {
            fields: Array<{ name: string; type: unknown; args: Array<{ name: string; type: unknown }> }> | null;
            inputFields: Array<{ name: string; type: unknown }> | null;
            possibleTypes: Array<{ name: string }> | null;
          };
        }>(
          `query($name: String!) { __type(name: $name) { fields { name type { ...T } args { name type { ...T } } } inputFields { name type { ...T } } possibleTypes { name } } }
         fragment T on __Type { kind name ofType { kind name ofType { kind name } } }`,
          { name },
        )
      ).body.data!.__type;
    const query = await type('Query');
    const field = (name: string) => query.fields!.find((candidate) => candidate.name === name)!;
    assert.deepEqual(field('campaigns').type, { kind: 'OBJECT', name: 'ModelCampaignConnection', ofType: null });
    assert.deepEqual(
      field('campaigns').args.map((arg) => arg.name),
      ['filter', 'limit', 'nextToken'],
    );
    assert.deepEqual(field('campaigns').args[0]!.type, {
      kind: 'INPUT_OBJECT',
      name: 'ModelCampaignFilterInput',
      ofType: null,
    });
    assert.deepEqual(field('campaign').args[0], {
      name: 'id',
      type: { kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name: 'ID', ofType: null } },
    });
    assert.deepEqual(
      field('businessAccounts').args.map((arg) => arg.name),
      ['limit', 'nextToken'],
    );
    assert.deepEqual(field('businessAccounts').type, {
      kind: 'OBJECT',
      name: 'ModelBusinessAccountConnection',
      ofType: null,
    });

    const connection = await type('ModelCampaignConnection');
    assert.deepEqual(connection.fields!.find((f) => f.name === 'items')!.type, {
      kind: 'NON_NULL',
      name: null,
      ofType: { kind: 'LIST', name: null, ofType: { kind: 'OBJECT', name: 'Campaign' } },
    });
    const filter = await type('ModelCampaignFilterInput');
    assert.deepEqual(filter.inputFields!.find((f) => f.name === 'businessAccountId')!.type, {
      kind: 'INPUT_OBJECT',
      name: 'ModelIDInput',
      ofType: null,
    });
    assert.ok(['and', 'or', 'not'].every((name) => filter.inputFields!.some((f) => f.name === name)));
    assert.deepEqual((await type('ModelIDInput')).inputFields!.find((f) => f.name === 'eq')!.type, {
      kind: 'SCALAR',
      name: 'ID',
      ofType: null,
    });

    const coupon = await type('CouponObjective');
    assert.deepEqual(coupon.fields!.find((f) => f.name === 'price')!.type, {
      kind: 'SCALAR',
      name: 'Float',
      ofType: null,
    });
    assert.deepEqual((await type('CampaignObjective')).possibleTypes!.map((t) => t.name).sort(), [
      'CouponObjective',
      'SurveyObjective',
      'VisitObjective',
    ]);
    const account = await type('BusinessAccount');
    for (const name of ['name', 'address', 'logo', 'pending', 'customProperties']) {
      assert.notEqual(
        (account.fields!.find((f) => f.name === name)!.type as { kind: string }).kind,
        'NON_NULL',
        `${name} is nullable`,
      );
    }
    assert.deepEqual(account.fields!.find((f) => f.name === 'customProperties')!.type, {
      kind: 'LIST',
      name: null,
      ofType: { kind: 'OBJECT', name: 'CustomProperty', ofType: null },
    });
    const content = await type('CampaignContent');
    assert.deepEqual(content.fields!.find((f) => f.name === 'title')!.type, {
      kind: 'SCALAR',
      name: 'String',
      ofType: null,
    });
  });

  it('applies limit to the rows scanned before the filter: short and empty pages still carry a nextToken', async () => {
    const expected = appsyncSeed()
      .campaigns.filter((c) => c.businessAccountId === 'biz-harbor-coffee')
      .map((c) => c.id);
    const seen: string[] = [];
    const sizes: number[] = [];
    let nextToken: string | null = null;
    let pages = 0;
    do {
      const current = await page({ filter: HARBOR, limit: 3, nextToken });
      assert.ok(current.items.every((item) => item!.businessAccountId === 'biz-harbor-coffee'));
      seen.push(...current.items.map((item) => item!.id));
      sizes.push(current.items.length);
      nextToken = current.nextToken;
      pages += 1;
    } while (nextToken);
    assert.deepEqual(seen, expected, 'every matching campaign once, in scan order');
    assert.equal(
      pages,
      Math.ceil(appsyncSeed().campaigns.length / 3) + (appsyncSeed().campaigns.length % 3 === 0 ? 1 : 0),
    );
    assert.ok(
      sizes.slice(0, -1).some((size) => size < 3),
      `some pages before the last are short: ${sizes.join(',')}`,
    );
    assert.ok(sizes.slice(0, -1).includes(0), `some page before the last is empty but has a token: ${sizes.join(',')}`);
  });

  it('gives a token whenever the scan stopped at the limit, so the last page can be empty', async () => {
    const all = appsyncSeed().campaigns.length;
    const first = await page({ limit: all });
    assert.equal(first.items.length, all);
    assert.ok(first.nextToken, 'a full read carries a token even when nothing is left');
    assert.deepEqual(await page({ limit: all, nextToken: first.nextToken }), { items: [], nextToken: null });
    const unknown = await page({ filter: { businessAccountId: { eq: 'nobody' } }, limit: 5 });
    assert.deepEqual(unknown.items, []);
    assert.ok(unknown.nextToken);
  });

  it(`reads ${APPSYNC_DEFAULT_LIMIT} rows without a limit and at most 1000 with a larger one`, async () => {
    const campaigns = Array.from({ length: 1001 }, (_, index) => ({
      id: `c${index}`,
      businessAccountId: 'b',
      content: null,
    }));
    const big = await startMarketing({ flavor: 'appsync', marketingPort: 0, apiKey: 'k', seed: { campaigns } });
    try {
      const read = async (variables: Record<string, unknown>) =>
        (await postAppSync<CampaignIdsPage>(big.marketingUrl, 'k', CAMPAIGNS, variables)).body.data!.campaigns!;
      assert.equal((await read({})).items.length, APPSYNC_DEFAULT_LIMIT);
      const capped = await read({ limit: 5000 });
      assert.equal(capped.items.length, 1000);
      assert.equal((await read({ limit: 5000, nextToken: capped.nextToken })).items.length, 1);
    } finally {
      await big.close();
    }
  });

  it('evaluates per-field filter inputs with and/or/not', async () => {
    const ids = async (filter: unknown) => (await page({ filter, limit: 1000 })).items.map((item) => item!.id).sort();
    const seed = appsyncSeed().campaigns;
    const of = (...accounts: string[]) =>
      seed
        .filter((c) => accounts.includes(c.businessAccountId))
        .map((c) => c.id)
        .sort();
    assert.deepEqual(
      await ids({ or: [HARBOR, { businessAccountId: { eq: 'biz-lumen-books' } }] }),
      of('biz-harbor-coffee', 'biz-lumen-books'),
    );
    assert.deepEqual(await ids({ businessAccountId: { beginsWith: 'biz-crumb' } }), of('biz-crumb-bakery'));
    assert.deepEqual(
      await ids({
        and: [{ businessAccountId: { ne: 'biz-harbor-coffee' } }],
        not: { businessAccountId: { beginsWith: 'biz-g' } },
      }),
      seed
        .filter((c) => c.businessAccountId !== 'biz-harbor-coffee' && !c.businessAccountId.startsWith('biz-g'))
        .map((c) => c.id)
        .sort(),
    );
    assert.deepEqual(await ids({ id: { eq: 'camp-peak-rental' } }), ['camp-peak-rental']);
  });

  it('issues tokens of 1 to 2 kB of standard base64 that are never the same twice', async () => {
    const a = (await page({ limit: 2 })).nextToken!;
    const b = (await page({ limit: 2 })).nextToken!;
    for (const token of [a, b]) {
      assert.ok(token.length >= 1024 && token.length <= 2048, `length ${token.length}`);
      assert.match(token, /^[A-Za-z0-9+/]+==$/);
      assert.match(token, /\+/);
      assert.match(token, /\//);
    }
    assert.notEqual(a, b);
    assert.deepEqual(
      (await page({ limit: 2, nextToken: a })).items,
      (await page({ limit: 2, nextToken: b })).items,
      'both stand for the same place',
    );
  });

  it('pages businessAccounts by scan too, pending and null-named accounts included', async () => {
    const seen: Array<{ id: string; name: string | null; pending: boolean | null }> = [];
    let nextToken: string | null = null;
    do {
      const response: Awaited<
        ReturnType<
          typeof gql<{
            businessAccounts: {
              items: Array<{ id: string; name: string | null; pending: boolean | null }>;
              nextToken: string | null;
            };
          }>
        >
      > = await gql(
        `query($t: String) { businessAccounts(limit: 3, nextToken: $t) { items { id name pending } nextToken } }`,
        { t: nextToken },
      );
      seen.push(...response.body.data!.businessAccounts.items);
      nextToken = response.body.data!.businessAccounts.nextToken;
    } while (nextToken);
    assert.deepEqual(
      seen.map((account) => account.id),
      appsyncSeed().businessAccounts.map((account) => account.id),
    );
    assert.ok(seen.some((account) => account.pending === true));
    assert.ok(seen.some((account) => account.name === null && account.pending === null));
  });

  it('serves a null-heavy seed: nulls in nested objects, names, list elements; numeric prices; unknown objectives', async () => {
    const response = await gql<{
      campaigns: {
        items: Array<{
          id: string;
          content: {
            title: string | null;
            featuredImage: { url: string } | null;
            objective: { __typename: string; price?: number | null } | null;
          } | null;
        }>;
      };
    }>(
      `{ campaigns(limit: 1000) { items { id content { title featuredImage(width: 480) { url } objective { __typename ... on CouponObjective { price } } } } } }`,
    );
    const items = response.body.data!.campaigns.items;
    const byId = new Map(items.map((item) => [item.id, item]));
    assert.equal(byId.get('camp-crumb-no-content')!.content, null);
    assert.equal(byId.get('camp-florist-untitled')!.content!.title, null);
    assert.equal(byId.get('camp-florist-bouquet')!.content!.featuredImage, null);
    assert.equal(byId.get('camp-crumb-survey')!.content!.objective!.__typename, 'SurveyObjective');
    assert.equal(byId.get('camp-harbor-morning-latte')!.content!.objective!.price, 2.5);
    assert.equal(byId.get('camp-greenleaf-bulk')!.content!.objective!.price, null, 'a free-text price has no number');
    assert.match(byId.get('camp-peak-rental')!.content!.featuredImage!.url, /\/images\/camp-peak-rental\.svg\?w=480$/);
    const usable = items.filter(
      (item) => item.content?.title && item.content.objective?.__typename === 'CouponObjective',
    );
    assert.ok(
      new Set(usable.map((item) => item.id.split('-')[1])).size >= 4,
      'usable coupon campaigns of several business accounts',
    );

    const accounts = (
      await gql<{
        businessAccounts: {
          items: Array<{
            id: string;
            address: { postalCode: string | null } | null;
            logo: unknown;
            customProperties: Array<{ key: string | null; value: string | null } | null> | null;
          }>;
        };
      }>(`{ businessAccounts { items { id address { postalCode } logo { url } customProperties { key value } } } }`)
    ).body.data!.businessAccounts.items;
    const account = (id: string) => accounts.find((candidate) => candidate.id === id)!;
    assert.ok(account('biz-harbor-coffee').customProperties!.includes(null));
    assert.deepEqual(account('biz-crumb-bakery').customProperties![1], { key: 'vegan', value: null });
    assert.equal(account('biz-crumb-bakery').address!.postalCode, null);
    assert.equal(account('biz-crumb-bakery').logo, null);
    assert.equal(account('biz-unnamed-kiosk').customProperties, null);
    assert.equal(account('biz-unnamed-kiosk').address, null);
  });

  it('keeps featuredImage(width) and serves the images it names', async () => {
    const response = await gql<{ campaign: { content: { featuredImage: { url: string } } } }>(
      `{ campaign(id: "camp-crumb-sourdough") { content { featuredImage(width: 320) { url } } } }`,
    );
    const image = await fetch(response.body.data!.campaign.content.featuredImage.url);
    assert.equal(image.status, 200);
    assert.match(await image.text(), /width="320" height="180"[^>]*aria-label="Sourdough Saturday"/);
    const untitled = await fetch(`${marketing.origin}/images/camp-crumb-no-content.svg?w=100`);
    assert.equal(untitled.status, 200);
  });

  it('takes the seed option in its own record shape', async () => {
    const small = await startMarketing({
      flavor: 'appsync',
      marketingPort: 0,
      apiKey: 'k',
      seed: { campaigns: [{ id: 'only', businessAccountId: 'b', content: null }] },
    });
    try {
      const response = await postAppSync<CampaignIdsPage>(small.marketingUrl, 'k', CAMPAIGNS, {});
      assert.deepEqual(response.body.data!.campaigns!.items, [{ id: 'only', businessAccountId: 'b' }]);
    } finally {
      await small.close();
    }
  });

  it('is chosen by the flavor option, SANDBOX_FLAVOR or neither (default stays default)', async () => {
    const data = await temporaryDataDir();
    const previous = process.env.SANDBOX_FLAVOR;
    try {
      process.env.SANDBOX_FLAVOR = 'appsync';
      const fromEnv = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: data.dir });
      assert.equal(fromEnv.flavor, 'appsync');
      const typeName = (
        await postAppSync<{ campaigns: { __typename: string } }>(
          fromEnv.marketingUrl,
          fromEnv.apiKey,
          '{ campaigns { __typename } }',
        )
      ).body.data!.campaigns.__typename;
      assert.equal(typeName, 'ModelCampaignConnection');
      await fromEnv.close();
      const optionWins = await startMarketing({ marketingPort: 0, flavor: 'default' });
      assert.equal(optionWins.flavor, 'default');
      await optionWins.close();
      process.env.SANDBOX_FLAVOR = 'graphql-yoga';
      await assert.rejects(startMarketing({ marketingPort: 0 }), /flavor must be one of default, appsync/);
      delete process.env.SANDBOX_FLAVOR;
      const plain = await startMarketing({ marketingPort: 0 });
      assert.equal(plain.flavor, 'default');
      assert.equal(
        (
          await postAppSync<{ campaigns: { __typename: string } }>(
            plain.marketingUrl,
            plain.apiKey,
            '{ campaigns { __typename } }',
          )
        ).body.data!.campaigns.__typename,
        'CampaignPage',
      );
      await plain.close();
    } finally {
      if (previous === undefined) delete process.env.SANDBOX_FLAVOR;
      else process.env.SANDBOX_FLAVOR = previous;
      await data.remove();
    }
  });
});
