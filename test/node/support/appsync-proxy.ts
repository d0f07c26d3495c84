/**
 * The proxy in front of the sandbox's appsync flavour (AppSync's shapes, scan-then-filter pages,
 * graphql-java errors), over real HTTP; and seeds for sparse lists.
 */
import { after, before } from 'node:test';
import type { MarketingProxyOptions } from '../../../src/proxy/index.ts';
import { appsyncSeed, startMarketing, type AppSyncSeed, type SandboxOptions } from '../../../src/sandbox/index.ts';
import { temporaryDataDir } from './connect.ts';
import { serveProxy, TEST_API_KEY, type ProxyUnderTest, type Upstream } from './proxy-server.ts';

export async function startAppSyncUpstream(
  options: Partial<SandboxOptions> & { seed?: Partial<AppSyncSeed> } = {},
): Promise<Upstream> {
  const data = await temporaryDataDir();
  const marketing = await startMarketing({
    marketingPort: 0,
    dataDir: data.dir,
    apiKey: TEST_API_KEY,
    flavor: 'appsync',
    ...options,
  });
  return {
    ...marketing,
    async dispose() {
      await marketing.close();
      await data.remove();
    },
  };
}

/** An appsync-flavoured upstream and the proxy in front of it, started before and stopped after the calling describe block. */
export function useAppSyncProxy(
  upstreamOptions: Parameters<typeof startAppSyncUpstream>[0],
  proxyOptions: Partial<MarketingProxyOptions> = {},
): { upstream: Upstream; proxy: ProxyUnderTest } {
  const running = {} as { upstream: Upstream; proxy: ProxyUnderTest };
  before(async () => {
    running.upstream = await startAppSyncUpstream(upstreamOptions);
    running.proxy = await serveProxy({ upstreamUrl: running.upstream.marketingUrl, ...proxyOptions });
  });
  after(async () => {
    await running.proxy?.close();
    await running.upstream?.dispose();
  });
  return running;
}

export const SPARSE_ACCOUNT = 'biz-sparse';

/**
 * `rows` campaigns in scan order, one in `every` of them (the `every`-th, 2·`every`-th, …) belonging
 * to SPARSE_ACCOUNT, named `camp-sparse-<n>` in that order; the others to other accounts.
 */
export function sparseSeed(rows: number, every: number): AppSyncSeed {
  const base = appsyncSeed();
  const campaigns: AppSyncSeed['campaigns'] = [];
  for (let row = 1; row <= rows; row += 1) {
    const mine = row % every === 0;
    const id = mine
      ? `camp-sparse-${String(row / every).padStart(4, '0')}`
      : `camp-other-${String(row).padStart(5, '0')}`;
    campaigns.push({
      id,
      businessAccountId: mine ? SPARSE_ACCOUNT : `biz-other-${row % 7}`,
      content: {
        title: `Offer ${id}`,
        subtitle: null,
        description: null,
        objective: { type: 'coupon', price: row % 10 },
        featuredImageUrl: null,
      },
    });
  }
  const account = {
    ...base.businessAccounts.find((candidate) => candidate.name)!,
    id: SPARSE_ACCOUNT,
    name: 'Sparse Shop',
  };
  return { businessAccounts: [...base.businessAccounts, account], campaigns };
}

export const LATE_ACCOUNT = 'ba-late';

/**
 * `rows` campaigns in scan order whose last `mine` belong to LATE_ACCOUNT (`camp-late-<n>`), the
 * others to other accounts: the case where a filtered scan finds nothing for thousands of rows.
 */
export function lateSeed(rows: number, mine = 2): AppSyncSeed {
  const seed = sparseSeed(rows - mine, rows);
  for (let index = 1; index <= mine; index += 1) {
    seed.campaigns.push({
      ...seed.campaigns[0]!,
      id: `camp-late-${index}`,
      businessAccountId: LATE_ACCOUNT,
      content: { ...seed.campaigns[0]!.content!, title: `Late offer ${index}` },
    });
  }
  const account = { ...seed.businessAccounts.at(-1)!, id: LATE_ACCOUNT, name: 'Late Shop' };
  return { ...seed, businessAccounts: [...seed.businessAccounts, account] };
}
