/**
 * Page-fill benchmark: the Marketing proxy in front of the sandbox's appsync flavour (limit applied
 * before the filter, as AppSync's Amplify resolvers do), seeded with 5,000 campaigns of which the
 * last 30 in scan order belong to the business account asked for. A shopper pages through that
 * account's campaigns 10 at a time, through the upstream's index query and by a filtered scan (the
 * same records without the index): upstream calls, rows read and time per page, with the proxy's
 * cache cold, then warm.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = 5000;
const MINE = 30;
const PAGE = 10;
const API_KEY = 'bench-marketing-key';

export interface PageFillRun {
  label: string;
  pages: number;
  items: number;
  /** Upstream calls per page (`campaigns` or the index query). */
  calls: number[];
  /** Rows the upstream read per page, before its filter. */
  rows: number[];
  /** Milliseconds per page, as the browser sees them. */
  millis: number[];
}

export async function benchPageFill(): Promise<PageFillRun[]> {
  return [...(await benchOne('index', true)), ...(await benchOne('scan', false))];
}

async function benchOne(source: string, campaignIndex: boolean): Promise<PageFillRun[]> {
  const { startMarketing } = await import('../src/sandbox/index.ts');
  const { createMarketingProxy } = await import('../src/proxy/index.ts');
  const { createNodeTransport, toNodeHandler } = await import('../src/proxy/node.ts');
  const { lateSeed, LATE_ACCOUNT } = await import('../test/node/support/appsync-proxy.ts');
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-bench-fill-'));
  const marketing = await startMarketing({
    marketingPort: 0,
    host: '127.0.0.1',
    dataDir,
    apiKey: API_KEY,
    flavor: 'appsync',
    seed: lateSeed(ROWS, MINE),
    campaignIndex,
  });
  const handler = createMarketingProxy({
    upstreamUrl: marketing.marketingUrl,
    apiKey: API_KEY,
    transport: createNodeTransport(),
    // A shopper walking a long scan makes more calls than the default per-address limit is meant for.
    rateLimits: { queryMisses: false },
    logger: () => undefined,
  });
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/marketing`;
  const upstreamCalls = () => {
    const { byOperation } = marketing.stats();
    return (byOperation.campaigns ?? 0) + (byOperation.campaignsByBusinessAccountId ?? 0);
  };
  const walk = async (label: string): Promise<PageFillRun> => {
    const run: PageFillRun = { label: `${source}, ${label}`, pages: 0, items: 0, calls: [], rows: [], millis: [] };
    let nextToken: string | null = null;
    do {
      const before = { calls: upstreamCalls(), rows: marketing.stats().rowsRead };
      const started = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          operation: 'campaigns',
          variables: { businessAccountId: LATE_ACCOUNT, limit: PAGE, ...(nextToken ? { nextToken } : {}) },
        }),
      });
      const body = (await response.json()) as { data: { campaigns: { items: unknown[]; nextToken: string | null } } };
      run.millis.push(performance.now() - started);
      run.calls.push(upstreamCalls() - before.calls);
      run.rows.push(marketing.stats().rowsRead - before.rows);
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
    `\nPage fill: campaigns of one business account, ${PAGE} per page, its ${MINE} campaigns the last of ${ROWS} rows in scan order, appsync-flavoured sandbox`,
  );
  console.log(
    `${'read by, proxy cache'.padEnd(22)}${'pages'.padStart(7)}${'items'.padStart(7)}${'calls/page'.padStart(12)}${'max'.padStart(5)}${'rows/page'.padStart(11)}${'calls/item'.padStart(12)}${'ms/page p50'.padStart(13)}${'max'.padStart(8)}`,
  );
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  for (const run of runs) {
    const calls = sum(run.calls);
    console.log(
      [
        run.label.padEnd(22),
        String(run.pages).padStart(7),
        String(run.items).padStart(7),
        (calls / run.pages).toFixed(1).padStart(12),
        String(Math.max(...run.calls)).padStart(5),
        (sum(run.rows) / run.pages).toFixed(0).padStart(11),
        (run.items ? calls / run.items : 0).toFixed(2).padStart(12),
        median(run.millis).toFixed(1).padStart(13),
        Math.max(...run.millis)
          .toFixed(1)
          .padStart(8),
      ].join(''),
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printPageFillFigures(await benchPageFill());
