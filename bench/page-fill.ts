/**
 * Page-fill benchmark: the Marketing proxy in front of the sandbox's appsync flavour (limit applied
 * before the filter, as AppSync's Amplify resolvers do), seeded with 2,000 campaigns of which one
 * in 20 belong to the business account asked for. A shopper pages through that account's campaigns
 * 10 at a time: upstream calls and time per filled page, with the proxy's cache cold, then warm.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = 2000;
const EVERY = 20;
const PAGE = 10;
const API_KEY = 'bench-marketing-key';

export interface PageFillRun {
  label: string;
  pages: number;
  items: number;
  /** Upstream `campaigns` calls per page. */
  calls: number[];
  /** Milliseconds per page, as the browser sees them. */
  millis: number[];
}

export async function benchPageFill(): Promise<PageFillRun[]> {
  const { startMarketing } = await import('../src/sandbox/index.ts');
  const { createMarketingProxy } = await import('../src/proxy/index.ts');
  const { createNodeTransport, toNodeHandler } = await import('../src/proxy/node.ts');
  const { sparseSeed, SPARSE_ACCOUNT } = await import('../test/node/support/appsync-proxy.ts');
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-bench-fill-'));
  const marketing = await startMarketing({
    marketingPort: 0,
    host: '127.0.0.1',
    dataDir,
    apiKey: API_KEY,
    flavor: 'appsync',
    seed: sparseSeed(ROWS, EVERY),
  });
  const handler = createMarketingProxy({
    upstreamUrl: marketing.marketingUrl,
    apiKey: API_KEY,
    transport: createNodeTransport(),
    logger: () => undefined,
  });
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/marketing`;
  const upstreamCalls = () => marketing.stats().byOperation.campaigns ?? 0;
  const walk = async (label: string): Promise<PageFillRun> => {
    const run: PageFillRun = { label, pages: 0, items: 0, calls: [], millis: [] };
    let nextToken: string | null = null;
    do {
      const before = upstreamCalls();
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          operation: 'campaigns',
          variables: { businessAccountId: SPARSE_ACCOUNT, limit: PAGE, ...(nextToken ? { nextToken } : {}) },
        }),
      });
      const body = (await response.json()) as { data: { campaigns: { items: unknown[]; nextToken: string | null } } };
      run.millis.push(performance.now() - started);
      run.calls.push(upstreamCalls() - before);
      run.pages += 1;
      run.items += body.data.campaigns.items.length;
      nextToken = body.data.campaigns.nextToken;
    } while (nextToken);
    return run;
  };
  try {
    // One request first so that reading the upstream's schema is not counted in the figures.
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"operation":"campaign","variables":{"id":"warm-up"}}',
    });
    return [await walk('cache cold'), await walk('cache warm')];
  } finally {
    server.close();
    await marketing.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export function printPageFillFigures(runs: PageFillRun[]): void {
  console.log(
    `\nPage fill: campaigns of one business account, ${PAGE} per page, 1 in ${EVERY} of ${ROWS} rows, appsync-flavoured sandbox (limit before filter)`,
  );
  console.log(
    `${'proxy cache'.padEnd(12)}${'pages'.padStart(7)}${'items'.padStart(7)}${'calls/page'.padStart(12)}${'max'.padStart(5)}${'ms/page p50'.padStart(13)}${'max'.padStart(8)}`,
  );
  for (const run of runs) {
    const total = run.calls.reduce((sum, calls) => sum + calls, 0);
    console.log(
      `${run.label.padEnd(12)}${String(run.pages).padStart(7)}${String(run.items).padStart(7)}${(total / run.pages).toFixed(1).padStart(12)}${String(Math.max(...run.calls)).padStart(5)}${median(run.millis).toFixed(1).padStart(13)}${Math.max(
        ...run.millis,
      )
        .toFixed(1)
        .padStart(8)}`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printPageFillFigures(await benchPageFill());
