import { expect } from '@open-wc/testing';
import { clientFor, MarketingClient, MarketingError } from '../../../src/marketing/index.ts';
import { parseCoupon } from '../../../src/marketing/client.ts';
import { parseBusinessAccountPage, toBusinessAccount } from '../../../src/marketing/business-accounts.ts';
import { parseCampaignPage, parseRetryAfter, toCampaign } from '../../../src/marketing/responses.ts';
import { hangFetch, recordFetches, stubFetch } from './helpers.ts';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('MarketingClient against the real proxy', () => {
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => (fetches = recordFetches()));
  afterEach(() => fetches.restore());

  it('reads typed campaign pages and follows nextToken', async () => {
    const client = new MarketingClient('/api/marketing');
    const first = await client.campaigns({ limit: 4 });
    expect(first.items).to.have.length(4);
    expect(first.nextToken).to.be.a('string');
    const campaign = first.items[0]!;
    expect(campaign.id).to.be.a('string');
    expect(campaign.title).to.be.a('string');
    expect(campaign.images.map((image) => image.width)).to.deep.equal([320, 640, 960, 1280]);
    for (const image of campaign.images)
      expect(image.url).to.match(new RegExp(`^http://localhost:\\d+/.*w=${image.width}`));
    const second = await client.campaigns({ limit: 4, nextToken: first.nextToken });
    expect(second.items.map((c) => c.id)).to.not.include.members(first.items.map((c) => c.id));
    expect(fetches.of('campaigns')[1]!.variables).to.deep.equal({ limit: 4, nextToken: first.nextToken });
  });

  it('maps coupon and other objectives, and filters by business account', async () => {
    const page = await clientFor('/api/marketing').campaigns({ businessAccountId: 'biz-harbor-coffee', limit: 50 });
    expect(page.items.every((c) => c.businessAccountId === 'biz-harbor-coffee')).to.equal(true);
    const latte = page.items.find((c) => c.id === 'camp-harbor-morning-latte')!;
    expect(latte.objective).to.deep.equal({ kind: 'coupon', price: '2.50' });
    const tenth = page.items.find((c) => c.id === 'camp-harbor-tenth-cup')!;
    expect(tenth.objective).to.deep.equal({ kind: 'other', typename: 'VisitObjective' });
  });

  it('reads one campaign, and an unknown id is not_found', async () => {
    const client = clientFor('/api/marketing');
    expect((await client.campaign('camp-peak-rental')).title).to.equal('Weekend tent rental');
    const error = await rejection(client.campaign('no-such-campaign'));
    expect(error).to.be.instanceOf(MarketingError);
    expect((error as MarketingError).code).to.equal('not_found');
  });

  it('reads business accounts with their pending flag', async () => {
    const page = await clientFor('/api/marketing').businessAccounts({ limit: 50 });
    const nova = page.items.find((a) => a.id === 'biz-nova-fitness');
    if (nova) expect(nova.pending).to.equal(true);
    const harbor = page.items.find((a) => a.id === 'biz-harbor-coffee')!;
    expect(harbor.pending).to.equal(false);
    expect(harbor.address).to.deep.equal({
      streetAddress: '14 Quay Street',
      postalCode: '94107',
      city: 'San Francisco',
    });
    expect(harbor.websiteUrl).to.equal('https://harborcoffee.example/');
  });

  it('turns a refused request into a MarketingError with the proxy code and status', async () => {
    const error = (await rejection(clientFor('/api/marketing').campaigns({ limit: 500 }))) as MarketingError;
    expect(error).to.be.instanceOf(MarketingError);
    expect(error.status).to.equal(400);
    expect(error.code).to.be.a('string').and.not.equal('network');
  });

  it('shares one network request between identical concurrent calls', async () => {
    const a = clientFor('/api/marketing');
    const b = new MarketingClient(`${location.origin}/api/marketing`);
    const [one, two, three] = await Promise.all([
      a.campaigns({ limit: 3 }),
      b.campaigns({ limit: 3 }),
      a.campaigns({ limit: 3, businessAccountId: undefined }),
    ]);
    expect(fetches.of('campaigns')).to.have.length(1);
    expect(one).to.deep.equal(two);
    expect(three).to.deep.equal(one);
    await a.campaigns({ limit: 3 });
    expect(fetches.of('campaigns'), 'no caching once settled').to.have.length(2);
  });

  it('keeps a shared request alive while one caller still waits, and aborts it when all gave up', async () => {
    const client = clientFor('/api/marketing');
    const quitter = new AbortController();
    const stayer = client.campaigns({ limit: 2 }, { signal: new AbortController().signal });
    const leaving = client.campaigns({ limit: 2 }, { signal: quitter.signal });
    quitter.abort();
    expect(((await rejection(leaving)) as DOMException).name).to.equal('AbortError');
    expect((await stayer).items).to.have.length(2);
    expect(fetches.of('campaigns')).to.have.length(1);

    const first = new AbortController();
    const second = new AbortController();
    const both = [
      client.campaigns({ limit: 5 }, { signal: first.signal }),
      client.campaigns({ limit: 5 }, { signal: second.signal }),
    ];
    first.abort();
    second.abort();
    for (const call of both) expect(((await rejection(call)) as DOMException).name).to.equal('AbortError');
    // A new call after everyone aborted starts afresh instead of joining the aborted request.
    expect((await client.campaigns({ limit: 5 })).items).to.have.length(5);
  });

  it('never shares coupon requests without an idempotency key', async () => {
    const client = clientFor('/api/marketing');
    const [one, two] = await Promise.all([
      client.requestCoupon('camp-peak-rental'),
      client.requestCoupon('camp-peak-rental'),
    ]);
    expect(one.code).to.not.equal(two.code);
    expect(fetches.of('requestCoupon')).to.have.length(2);
  });

  it('sends the idempotency key and access token as headers', async () => {
    const key = crypto.randomUUID();
    const client = clientFor('/api/marketing');
    const one = await client.requestCoupon('camp-peak-rental', { idempotencyKey: key, accessToken: 'token-abc' });
    const again = await client.requestCoupon('camp-peak-rental', { idempotencyKey: key, accessToken: 'token-abc' });
    expect(again.code).to.equal(one.code);
    const call = fetches.of('requestCoupon')[0]!;
    expect(call.headers.get('idempotency-key')).to.equal(key);
    expect(call.headers.get('authorization')).to.equal('Bearer token-abc');
  });
});

describe('MarketingClient failures', () => {
  it('reports an unreachable proxy as a network error', async () => {
    const error = (await rejection(
      new MarketingClient('http://localhost:9/api/marketing').campaigns(),
    )) as MarketingError;
    expect(error).to.be.instanceOf(MarketingError);
    expect(error.code).to.equal('network');
    expect(error.status).to.equal(0);
  });

  it('reports a garbage endpoint as a config error', () => {
    expect(() => new MarketingClient('http://[broken')).to.throw(MarketingError, /not a valid URL/);
  });

  it('reads Retry-After from a 429', async () => {
    const stub = stubFetch(
      () =>
        new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down' } }), {
          status: 429,
          headers: { 'retry-after': '42' },
        }),
    );
    try {
      const error = (await rejection(clientFor('/api/marketing').campaigns())) as MarketingError;
      expect([error.code, error.status, error.retryAfter, error.message]).to.deep.equal([
        'rate_limited',
        429,
        42,
        'Slow down',
      ]);
    } finally {
      stub.restore();
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('120', now)).to.equal(120);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:01:30 GMT', now)).to.equal(90);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 'a date in the past means now').to.equal(0);
    for (const bad of [null, '', 'soon', '-5', '1.5'])
      expect(parseRetryAfter(bad, now), String(bad)).to.equal(undefined);
  });

  it('refuses bodies that are not JSON, or not the expected shape, with a clear error', async () => {
    const bodies = [
      '<html>oops</html>',
      '{"data":{"campaigns":{"items":[{"id":5}]}}}',
      '{"data":{"campaigns":{"items":"x"}}}',
      '[]',
      '{"data":null}',
    ];
    for (const body of bodies) {
      const stub = stubFetch(() => new Response(body, { status: 200 }));
      try {
        const error = (await rejection(clientFor('/api/marketing').campaigns())) as MarketingError;
        expect(error, body).to.be.instanceOf(MarketingError);
        expect(error.code, body).to.equal('invalid_response');
      } finally {
        stub.restore();
      }
    }
    const stub = stubFetch(() => new Response('bad gateway', { status: 502 }));
    try {
      const error = (await rejection(clientFor('/api/marketing').campaigns())) as MarketingError;
      expect([error.code, error.status]).to.deep.equal(['bad_gateway', 502]);
    } finally {
      stub.restore();
    }
  });
});

describe('MarketingClient request sharing', () => {
  it('aborts the shared network request only once every caller has aborted', async () => {
    const network = hangFetch();
    const { signals } = network;
    try {
      const client = clientFor('/api/marketing');
      const first = new AbortController();
      const second = new AbortController();
      const calls = [
        client.businessAccounts({ limit: 3 }, { signal: first.signal }),
        client.businessAccounts({ limit: 3 }, { signal: second.signal }),
      ];
      expect(signals).to.have.length(1);
      first.abort();
      expect(((await rejection(calls[0]!)) as DOMException).name).to.equal('AbortError');
      expect(signals[0]!.aborted, 'still wanted by the second caller').to.equal(false);
      second.abort();
      expect(signals[0]!.aborted, 'nobody waits any more').to.equal(true);
      expect(((await rejection(calls[1]!)) as DOMException).name).to.equal('AbortError');
    } finally {
      network.restore();
    }
  });
});

describe('mapping the wire shape', () => {
  it('drops unsafe image, logo and website URLs', () => {
    const campaign = toCampaign({
      id: 'c',
      content: {
        title: 't',
        img320: { url: 'javascript:alert(1)' },
        img640: { url: 'https://cdn.example/a.png' },
        img960: null,
        img0: { url: 'https://cdn.example/zero.png' },
        objective: null,
      },
    });
    expect(campaign.images).to.deep.equal([{ width: 640, url: 'https://cdn.example/a.png' }]);
    expect(campaign.objective).to.deep.equal({ kind: 'other', typename: '' });
    const account = toBusinessAccount({
      name: 'n',
      websiteUrl: 'javascript:alert(1)',
      logo: { url: 'http://evil.example/x.png' },
      pending: false,
    });
    expect(account.websiteUrl).to.equal(undefined);
    expect(account.logoUrl).to.equal(undefined);
  });

  it('treats an account without a clear pending flag as pending', () => {
    expect(toBusinessAccount({ name: 'n' }).pending).to.equal(true);
    expect(toBusinessAccount({ name: 'n', pending: 'no' }).pending).to.equal(true);
    expect(toBusinessAccount({ name: 'n', pending: false }).pending).to.equal(false);
  });

  it('reads every field of a well-formed campaign and business account', () => {
    expect(
      toCampaign({
        id: 'c',
        businessAccountId: null,
        content: {
          title: 'T',
          subtitle: null,
          description: 'D',
          img640: { url: 'https://cdn.example/640.png' },
          img320: { url: 'https://cdn.example/320.png' },
          objective: { __typename: 'CouponObjective', price: 4.5 },
        },
      }),
    ).to.deep.equal({
      id: 'c',
      businessAccountId: '',
      title: 'T',
      subtitle: '',
      description: 'D',
      images: [
        { width: 320, url: 'https://cdn.example/320.png' },
        { width: 640, url: 'https://cdn.example/640.png' },
      ],
      objective: { kind: 'coupon', price: '4.5' },
    });
    expect(
      toBusinessAccount({
        id: 'b',
        name: 'N',
        category: 'Cafe',
        phoneNumber: null,
        websiteUrl: 'https://shop.example/',
        logo: { url: 'https://cdn.example/logo.png' },
        address: { streetAddress: '1 Main St', postalCode: null, city: 'Town' },
        pending: false,
        customProperties: [{ key: 'hours', value: null }],
      }),
    ).to.deep.equal({
      id: 'b',
      name: 'N',
      description: '',
      category: 'Cafe',
      phoneNumber: '',
      websiteUrl: 'https://shop.example/',
      logoUrl: 'https://cdn.example/logo.png',
      address: { streetAddress: '1 Main St', postalCode: '', city: 'Town' },
      pending: false,
      customProperties: [{ key: 'hours', value: '' }],
    });
  });

  it('names where an answer is not the documented shape', () => {
    const cases: [() => unknown, string][] = [
      [() => parseCampaignPage({ campaigns: 'x' }), 'campaigns should be an object'],
      [() => parseCampaignPage({ campaigns: { items: {} } }), 'campaigns.items should be a list'],
      [
        () => parseCampaignPage({ campaigns: { items: [{ id: 'a', content: {} }, 'b'] } }),
        'campaigns.items[1] should be an object',
      ],
      [() => toCampaign({ id: 1, content: {} }), 'campaign.id should be a string'],
      [() => toCampaign({ id: 'c' }), 'campaign.content should be an object'],
      [() => toBusinessAccount({}), 'businessAccount.name should be a string'],
      [
        () => parseBusinessAccountPage({ businessAccounts: { items: [{ name: 'n' }, { name: 5 }] } }),
        'businessAccounts.items[1].name should be a string',
      ],
      [
        () => parseCoupon({ requestCoupon: { coupon: { code: '' } } }),
        'requestCoupon.coupon.code should be a non-empty string',
      ],
      [() => parseCoupon({ requestCoupon: { coupon: null } }), 'requestCoupon.coupon should be an object'],
    ];
    for (const [read, message] of cases) {
      expect(read, message).to.throw(MarketingError, `The Marketing response is not usable: ${message}.`);
    }
  });

  it('reads a field of another type as empty, never as markup or a link', () => {
    const campaign = toCampaign({
      id: 'c',
      businessAccountId: 7,
      content: {
        title: { html: '<b>bold</b>' },
        subtitle: ['x'],
        img320: 'https://cdn.example/320.png',
        img640: { url: 42 },
        objective: { __typename: 'CouponObjective', price: true },
      },
    });
    expect(campaign).to.deep.equal({
      id: 'c',
      businessAccountId: '',
      title: '',
      subtitle: '',
      description: '',
      images: [],
      objective: { kind: 'coupon', price: null },
    });
    expect(toCampaign({ id: 'c', content: { objective: { __typename: 3 } } }).objective).to.deep.equal({
      kind: 'other',
      typename: '',
    });
    expect(
      toBusinessAccount({
        name: 'n',
        websiteUrl: 1,
        address: 'x',
        phoneNumber: { tel: 'javascript:alert(1)' },
        customProperties: [{ key: 'k' }, {}, 'x', { key: 3, value: 'v' }],
      }),
    ).to.deep.include({
      websiteUrl: undefined,
      address: null,
      phoneNumber: '',
      customProperties: [{ key: 'k', value: '' }],
    });
    expect(toBusinessAccount({ name: 'n', address: { city: 5 } }).address).to.deep.equal({
      streetAddress: '',
      postalCode: '',
      city: '',
    });
    expect(toBusinessAccount({ name: 'n', customProperties: {} }).customProperties).to.deep.equal([]);
    expect(parseCampaignPage({ campaigns: { items: [], nextToken: 7 } }).nextToken).to.equal(null);
  });
});
