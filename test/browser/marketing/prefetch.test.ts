/**
 * The first pages the script tag asks for early (src/marketing/prefetch.ts): the client's identical
 * request takes the answer, once for each element it was asked for; a request that differs in anything, or carries the shopper's
 * tokens, never does and goes to the proxy itself.
 */
import { expect } from '@open-wc/testing';
import { MarketingClient } from '../../../src/marketing/client.ts';
import { prefetchRead } from '../../../src/marketing/prefetch.ts';
import { recordFetches } from './helpers.ts';

describe('first pages asked for early', () => {
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => (fetches = recordFetches()));
  afterEach(() => fetches.restore());

  it('gives the answer to the identical request, once, and to no other', async () => {
    // A client of its own, so no request in flight is shared with another test's.
    const client = new MarketingClient('/api/marketing');
    prefetchRead('/api/marketing', 'campaign', { id: 'camp-peak-rental' });
    expect(fetches.of('campaign')).to.have.length(1);
    expect((await client.campaign('camp-peak-rental')).title).to.equal('Weekend tent rental');
    expect(fetches.of('campaign'), 'the early answer was taken').to.have.length(1);
    // Taken once: the same request again goes to the proxy.
    await client.campaign('camp-peak-rental');
    expect(fetches.of('campaign')).to.have.length(2);
  });

  it('gives it once to each element it was asked for, even after the first one has read it', async () => {
    // A tag and a CMS mount for the same page: the second asks when the first has long finished.
    prefetchRead('/api/marketing', 'campaign', { id: 'camp-harbor-beans' });
    prefetchRead('/api/marketing', 'campaign', { id: 'camp-harbor-beans' });
    const first = await new MarketingClient('/api/marketing').campaign('camp-harbor-beans');
    const second = await new MarketingClient('/api/marketing').campaign('camp-harbor-beans');
    expect([first.title, second.title]).to.deep.equal([first.title, first.title]);
    expect(fetches.of('campaign'), 'one request for both').to.have.length(1);
    await new MarketingClient('/api/marketing').campaign('camp-harbor-beans');
    expect(fetches.of('campaign'), 'a third, not asked for early, asks itself').to.have.length(2);
  });

  it('never gives it to a request with the shopper’s tokens', async () => {
    const client = new MarketingClient('/api/marketing');
    prefetchRead('/api/marketing', 'campaigns', { limit: 3 });
    await client.campaigns({ limit: 3 }, { accessToken: 'token-abc', idToken: 'id-token' }).catch(() => undefined);
    const calls = fetches.of('campaigns');
    expect(calls).to.have.length(2);
    expect(calls[1]!.headers.get('authorization')).to.equal('Bearer token-abc');
  });

  it('never gives it to a request that differs in its variables or its endpoint', async () => {
    prefetchRead('/api/marketing', 'campaigns', { limit: 2 });
    await new MarketingClient('/api/marketing').campaigns({ limit: 5 });
    await new MarketingClient('/api/marketing?another').campaigns({ limit: 2 });
    expect(fetches.of('campaigns').map((call) => call.variables)).to.deep.equal([
      { limit: 2 },
      { limit: 5 },
      { limit: 2 },
    ]);
  });

  it('reads with a POST from a proxy older than GET reads, which answers a GET with 405', async () => {
    const original = window.fetch;
    const methods: string[] = [];
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      methods.push(init?.method ?? 'GET');
      if (init?.method === undefined) return Promise.resolve(new Response(null, { status: 405 }));
      return original(input, init);
    };
    try {
      const page = await new MarketingClient('/api/marketing').campaigns({ limit: 1 });
      expect(page.items).to.have.length(1);
      expect(methods).to.deep.equal(['GET', 'POST']);
    } finally {
      window.fetch = original;
    }
  });
});
