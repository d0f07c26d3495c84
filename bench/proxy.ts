/**
 * Marketing proxy benchmark: the same `campaigns` query sent to the Marketing sandbox directly, through
 * the proxy with its cache switched off, and through the proxy with its cache on: in memory, in a real
 * Redis (redis-server on a free port) for one instance, and for two instances sharing it. Then what each
 * kind of request (cache miss, cache hit, claim, replay) costs that Redis, read from its own counters. The sandbox and the
 * proxy each run in their own child process (this file, started again with a role), so the load
 * generator, the proxy and the upstream do not share one event loop.
 *
 * For each target: requests per second and p50/p99 latency under load (20 connections), then p50/p99
 * of one connection at a time, which is what a shopper's single request sees. The proxy's overhead is
 * the difference of the single-connection p50s; latencies are timed per response in fractional ms.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const LOAD_SECONDS = Number(process.env.BENCH_PROXY_SECONDS ?? 5);
const SINGLE_SECONDS = Number(process.env.BENCH_PROXY_SINGLE_SECONDS ?? 3);
const WARMUP_SECONDS = 2;
const SINGLE_ROUNDS = 3;
const CONNECTIONS = 20;
const VARIABLES = { limit: 10 };
const API_KEY = 'bench-marketing-key';

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

export interface ProxyTargetFigures {
  label: string;
  load: Figures;
  single: Figures;
}

export interface ProxyBenchResult {
  targets: ProxyTargetFigures[];
  /** Proxy (uncached) single-connection p50 minus direct single-connection p50, in ms. */
  p50OverheadMs: number;
  /** Cached proxy (memory store) requests/s divided by direct requests/s, under load. */
  cachedThroughputRatio: number;
  /** The same with the cache in Redis (one instance). */
  redisThroughputRatio: number;
  /** Two instances on one Redis against one, under the same load. */
  twoInstancesRatio: number;
  storeCosts: StoreCost[];
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

interface Target {
  label: string;
  /** Where to send; several URLs (instances behind a balancer) share the connections, all at once. */
  url: string | string[];
  body: string;
  headers: Record<string, string>;
}

/** Runs autocannon against a target; returns the latencies (ms, fractional) of its 200 answers. */
async function run(target: Target, connections: number, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const urls = typeof target.url === 'string' ? [target.url] : target.url;
  const results = await Promise.all(
    urls.map((url) => {
      const options = {
        url,
        method: 'POST' as const,
        body: target.body,
        headers: { 'content-type': 'application/json', ...target.headers },
        connections: Math.max(1, Math.round(connections / urls.length)),
        duration: seconds,
      };
      return new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(options, (error, finished) => (error ? reject(error) : resolve(finished)));
        instance.on('response', (_client, statusCode, _bytes, responseTime) => {
          if (statusCode === 200) latencies.push(responseTime);
        });
      });
    }),
  );
  for (const result of results) {
    if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
      throw new Error(
        `${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
      );
    }
  }
  return latencies;
}

function figures(latencies: number[], seconds: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requestsPerSecond: sorted.length / seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/**
 * Warm-up and load runs one target after the other; the single-connection runs take turns in
 * rounds, so that a change in the machine's load (other processes) affects every target alike.
 */
async function measureAll(targets: Target[]): Promise<ProxyTargetFigures[]> {
  const load: Figures[] = [];
  for (const target of targets) {
    await run(target, CONNECTIONS, WARMUP_SECONDS);
    load.push(figures(await run(target, CONNECTIONS, LOAD_SECONDS), LOAD_SECONDS));
  }
  const single: number[][] = targets.map(() => []);
  for (let round = 0; round < SINGLE_ROUNDS; round += 1) {
    for (const [index, target] of targets.entries())
      single[index]!.push(...(await run(target, 1, SINGLE_SECONDS / SINGLE_ROUNDS)));
  }
  return targets.map((target, index) => ({
    label: target.label,
    load: load[index]!,
    single: figures(single[index]!, SINGLE_SECONDS),
  }));
}

/** Starts this file again in a child process with a role; resolves with the URL it reports. */
function startChild(role: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), [role, ...args], {
    execArgv: ['--import', 'tsx'],
    // The proxy's access log goes to stdout: kept (its cost is part of the figures), then discarded.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ url: (message as { url: string }).url, child }));
    child.once('exit', (code) => reject(new Error(`bench ${role} exited with code ${code}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function benchProxy(): Promise<ProxyBenchResult> {
  const { documentFor, BUILT_IN_OPERATIONS } = await import('../src/proxy/upstream/operations.ts');
  const { startRedis } = await import('../test/node/support/redis.ts');
  const children: ChildProcess[] = [];
  const redis = await startRedis();
  try {
    const marketing = await startChild('marketing', []);
    children.push(marketing.child);
    const proxy = async (...args: string[]) => {
      const started = await startChild('proxy', [marketing.url, ...args]);
      children.push(started.child);
      return started.url;
    };
    const uncached = await proxy('uncached');
    const cached = await proxy('cached');
    const onRedis = [await proxy('cached', redis.url), await proxy('cached', redis.url)];

    const query = documentFor(BUILT_IN_OPERATIONS.campaigns!, VARIABLES);
    const direct = JSON.stringify({ query, variables: VARIABLES });
    const proxied = JSON.stringify({ operation: 'campaigns', variables: VARIABLES });
    const targets = await measureAll([
      { label: 'direct upstream', url: marketing.url, body: direct, headers: { 'x-api-key': API_KEY } },
      { label: 'proxy, uncached', url: uncached, body: proxied, headers: {} },
      { label: 'cached, memory', url: cached, body: proxied, headers: {} },
      { label: 'cached, Redis ×1', url: onRedis[0]!, body: proxied, headers: {} },
      { label: 'cached, Redis ×2', url: onRedis, body: proxied, headers: {} },
    ]);
    const [directFigures, uncachedFigures, cachedFigures, redisOne, redisTwo] = targets as [
      ProxyTargetFigures,
      ProxyTargetFigures,
      ProxyTargetFigures,
      ProxyTargetFigures,
      ProxyTargetFigures,
    ];
    const perSecond = (figures: ProxyTargetFigures) => figures.load.requestsPerSecond;
    return {
      targets,
      p50OverheadMs: uncachedFigures.single.p50 - directFigures.single.p50,
      cachedThroughputRatio: perSecond(cachedFigures) / perSecond(directFigures),
      redisThroughputRatio: perSecond(redisOne) / perSecond(directFigures),
      twoInstancesRatio: perSecond(redisTwo) / perSecond(redisOne),
      storeCosts: await measureStoreCosts(marketing.url, redis.url),
    };
  } finally {
    await Promise.all(children.map(stopChild));
    await redis.stop();
  }
}

/** What one request of a kind costs Redis: the commands it ran (INFO commandstats) and the round trips. */
export interface StoreCost {
  kind: string;
  /** Commands a client sent, per request (what the proxy waits for, one after another at most). */
  roundTrips: number;
  /** Every command Redis ran, per request, by name: the ones a script ran included. */
  commands: Record<string, number>;
}

const STORE_COST_REQUESTS = 20;

/**
 * Each request kind through two in-process proxy instances on one fresh Redis (the second one's own
 * copies empty): Redis's counters reset (CONFIG RESETSTAT) before each kind and read after it
 * (INFO commandstats), the commands clients sent counted apart from those scripts ran (MONITOR).
 */
async function measureStoreCosts(upstreamUrl: string, redisUrl: string): Promise<StoreCost[]> {
  const { createClient } = await import('redis');
  const { createMarketingProxy } = await import('../src/proxy/index.ts');
  const { createRedisStore } = await import('../src/proxy/redis-store.ts');
  const { watchCommands } = await import('../test/node/support/redis.ts');
  const stores = [0, 1].map(() => createRedisStore({ url: redisUrl }));
  const [first, second] = stores.map((store) =>
    createMarketingProxy({
      upstreamUrl,
      apiKey: API_KEY,
      store,
      logger: () => {},
      rateLimits: {
        perAddress: { limit: 10_000, windowSeconds: 60 },
        perShopper: { limit: 10_000, windowSeconds: 60 },
      },
    }),
  ) as [ReturnType<typeof createMarketingProxy>, ReturnType<typeof createMarketingProxy>];
  const admin = await createClient({ url: redisUrl }).connect();
  const watch = await watchCommands(redisUrl);
  const send = async (handler: typeof first, body: unknown, headers: Record<string, string> = {}) => {
    const response = await handler(
      new Request('http://127.0.0.1/api/marketing', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );
    if (response.status !== 200) throw new Error(`store costs: ${response.status} ${await response.text()}`);
  };
  const query = (index: number) => ({ operation: 'campaign', variables: { id: `bench-${index}` } });
  const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } };
  const keys = Array.from({ length: STORE_COST_REQUESTS }, (_, index) => `bench-claim-${index}`);
  const indexes = keys.map((_, index) => index);
  try {
    // Warm up: connections made, scripts loaded (EVALSHA's NOSCRIPT answered once), schema read.
    await send(first, query(-1));
    await send(second, query(-1));
    await send(first, coupon, { 'idempotency-key': 'bench-warm-up' });
    const kinds: Array<[string, () => Promise<unknown>]> = [
      ['cache miss', () => Promise.all(indexes.map((index) => send(first, query(index))))],
      ['cache hit, from Redis', () => Promise.all(indexes.map((index) => send(second, query(index))))],
      ['cache hit, instance copy', () => Promise.all(indexes.map((index) => send(second, query(index))))],
      ['claim', () => Promise.all(keys.map((key) => send(first, coupon, { 'idempotency-key': key })))],
      ['replay', () => Promise.all(keys.map((key) => send(second, coupon, { 'idempotency-key': key })))],
    ];
    const costs: StoreCost[] = [];
    for (const [kind, requests] of kinds) {
      await watch.take();
      await admin.configResetStat();
      await requests();
      const sent = (await watch.take()).filter((command) => !command.byScript && command.name !== 'echo');
      const stats = await admin.info('commandstats');
      const commands: Record<string, number> = {};
      for (const [, name, calls] of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
        // The counters' own reset and reads, and the watcher's markers, are not the proxy's.
        if (/^(config|info|echo|monitor)/.test(name!)) continue;
        commands[name!] = Number(calls) / STORE_COST_REQUESTS;
      }
      costs.push({ kind, roundTrips: sent.length / STORE_COST_REQUESTS, commands });
    }
    return costs;
  } finally {
    await watch.stop();
    await admin.close();
    await Promise.all(stores.map((store) => store.close()));
  }
}

export function printProxyFigures(result: ProxyBenchResult): void {
  const ms = (value: number) => value.toFixed(2).padStart(8);
  console.log(
    `\nMarketing proxy: campaigns(limit: 10); load = ${CONNECTIONS} connections for ${LOAD_SECONDS} s, single = 1 connection, ${SINGLE_SECONDS} s in ${SINGLE_ROUNDS} interleaved rounds`,
  );
  console.log(
    `${'target'.padEnd(18)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}  | single:${'p50 ms'.padStart(8)}${'p99 ms'.padStart(9)}`,
  );
  for (const { label, load, single } of result.targets) {
    console.log(
      `${label.padEnd(18)}${Math.round(load.requestsPerSecond).toString().padStart(9)} ${ms(load.p50)} ${ms(load.p99)}  |        ${ms(single.p50)} ${ms(single.p99)}`,
    );
  }
  console.log(
    `proxy p50 overhead over a direct call (single connection): ${result.p50OverheadMs >= 0 ? '+' : ''}${result.p50OverheadMs.toFixed(2)} ms (aim ≤ 1 ms)`,
  );
  console.log(`cached proxy throughput / direct throughput: ${result.cachedThroughputRatio.toFixed(1)}× (aim ≥ 5×)`);
  console.log(
    `cached on Redis / direct: ${result.redisThroughputRatio.toFixed(1)}×; two instances on one Redis / one: ${result.twoInstancesRatio.toFixed(2)}× (one machine: the instances share its cores)`,
  );
  console.log(
    `\nRedis per request (${STORE_COST_REQUESTS} of each kind; INFO commandstats, reset between kinds; round trips = commands a client sent):`,
  );
  console.log(`${'kind'.padEnd(26)}${'round trips'.padStart(12)}  commands (scripts' own included)`);
  for (const { kind, roundTrips, commands } of result.storeCosts) {
    const list = Object.entries(commands)
      .map(([name, calls]) => `${name} ${Number(calls.toFixed(2))}`)
      .join(', ');
    console.log(`${kind.padEnd(26)}${roundTrips.toFixed(2).padStart(12)}  ${list || '(none)'}`);
  }
}

async function serveRole(role: string, args: string[]): Promise<void> {
  let url: string;
  if (role === 'marketing') {
    const { startMarketing } = await import('../src/sandbox/index.ts');
    const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-bench-proxy-'));
    const marketing = await startMarketing({ marketingPort: 0, host: '127.0.0.1', dataDir, apiKey: API_KEY });
    process.once(
      'SIGTERM',
      () =>
        void marketing
          .close()
          .then(() => rm(dataDir, { recursive: true, force: true }))
          .finally(() => process.exit(0)),
    );
    url = marketing.marketingUrl;
  } else {
    const { createMarketingProxy } = await import('../src/proxy/index.ts');
    const { createNodeTransport, toNodeHandler } = await import('../src/proxy/node.ts');
    const [upstreamUrl, mode, redisUrl] = args;
    const store = redisUrl
      ? (await import('../src/proxy/redis-store.ts')).createRedisStore({ url: redisUrl, keyPrefix: 'bench:' })
      : undefined;
    // Set up as the loyalty-proxy CLI is: the Node transport upstream, the default JSON-line access log.
    const transport = process.env.BENCH_PROXY_TRANSPORT === 'fetch' ? undefined : createNodeTransport();
    // One load generator is one address: the per-address limit on upstream queries would measure itself.
    const handler = createMarketingProxy({
      upstreamUrl: upstreamUrl!,
      apiKey: API_KEY,
      cache: mode === 'cached' ? undefined : false,
      store,
      transport,
      rateLimits: { queryMisses: false },
    });
    const server = createServer(toNodeHandler(handler, { overrideGlobalObjects: true }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.once('SIGTERM', () => process.exit(0));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/marketing`;
  }
  process.send!({ url });
}

const [role, ...roleArgs] = process.argv.slice(2);
if (role === 'marketing' || role === 'proxy') {
  await serveRole(role, roleArgs);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printProxyFigures(await benchProxy());
}
