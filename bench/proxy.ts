/**
 * Marketing proxy benchmark: the same `campaigns` query sent to the Marketing sandbox directly, through
 * the proxy with its cache switched off, and through the proxy with its cache on: in memory, in a real
 * Redis (redis-server on a free port) for one instance, and for two instances sharing it. Then what each
 * kind of request (cache miss, cache hit, claim, replay) costs that Redis, read from its own counters;
 * the Redis reads per second one instance sends for one hot answer under 50 connections; and the CPU
 * the default access log takes per line. The sandbox and the
 * proxy each run in their own child process (this file, started again with a role), so the load
 * generator, the proxy and the upstream do not share one event loop.
 *
 * How it is measured, so that a machine whose load changes during the run (other processes on its
 * cores) treats every target alike and a figure compares targets measured at the same moments:
 *
 * - Load (throughput, p50/p99 under 20 connections): after a warm-up of each target, LOAD_ROUNDS rounds
 *   in which every target in turn (its order rotated each round) gets 20 connections for one short
 *   run. A target's figures are those of all its runs; the cached/direct throughput ratio is the median
 *   of the ratios within each round, each from two runs a few seconds apart at most. Around each run
 *   the target's server processes report their CPU time: the CPU each answered request cost them, a
 *   figure that a busy machine changes far less than it changes latencies and rates. The load generator
 *   runs on the same cores: on a busy machine its own CPU per request (tens of µs, the same for every
 *   target) weighs on a cache hit's rate far more than on an upstream call's, so the cached/direct
 *   ratio of rates falls there; the ratio of answers per CPU-second of the serving processes leaves it out.
 * - Single connection (what a shopper's one request sees): after a warm-up, SINGLE_ROUNDS rounds of
 *   SINGLE_CYCLES cycles, each cycle one request to each target in turn (order rotated per cycle), one
 *   keep-alive connection per target, timed from the request's start to its answer's last byte. The
 *   proxy's overhead is the median over rounds of (the uncached proxy's p50 − the direct p50) within
 *   the round: each difference is of requests sent moments apart, so a burst of load elsewhere falls
 *   on both sides of it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const LOAD_ROUNDS = Number(process.env.BENCH_PROXY_LOAD_ROUNDS ?? 5);
const LOAD_ROUND_SECONDS = Number(process.env.BENCH_PROXY_LOAD_ROUND_SECONDS ?? 1);
const WARMUP_SECONDS = 1;
const SINGLE_ROUNDS = Number(process.env.BENCH_PROXY_SINGLE_ROUNDS ?? 15);
const SINGLE_CYCLES = Number(process.env.BENCH_PROXY_SINGLE_CYCLES ?? 100);
const SINGLE_WARMUP_CYCLES = 200;
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
  /** CPU time (user + system) of the target's own server processes per answered request under load, in µs. */
  cpuPerRequestUs: number;
  /** Single connection; requestsPerSecond is not measured there (0). */
  single: Figures;
}

export interface ProxyBenchResult {
  targets: ProxyTargetFigures[];
  /** Median over rounds of (uncached proxy p50 − direct p50), single connection, in ms. */
  p50OverheadMs: number;
  /** The smallest and largest of those per-round differences. */
  p50OverheadRangeMs: [number, number];
  /** Median over rounds of cached proxy (memory store) requests/s divided by direct requests/s, under load. */
  cachedThroughputRatio: number;
  /** The smallest and largest of those per-round ratios. */
  cachedThroughputRange: [number, number];
  /**
   * Answers per CPU-second of the serving processes, cached proxy (memory store) against the direct
   * upstream: the median of the rounds' ratios of CPU per answer. What one core of each serves, without
   * the load generator's own CPU, which on one machine takes its share of the same cores (shoppers'
   * browsers are elsewhere).
   */
  cachedPerCoreRatio: number;
  cachedPerCoreRange: [number, number];
  /** The same with the cache in Redis (one instance). */
  redisThroughputRatio: number;
  /** Two instances on one Redis against one, under the same load. */
  twoInstancesRatio: number;
  storeCosts: StoreCost[];
  /** Redis GETs per second one instance sent for one hot answer under HOT_CONNECTIONS connections. */
  hotAnswerReadsPerSecond: number;
  /** The default access log alone, in a process of its own: CPU µs per line (entry made, line written). */
  accessLogLineUs: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

const sortedCopy = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]) => percentile(sortedCopy(values), 0.5);
const range = (values: readonly number[]): [number, number] => [Math.min(...values), Math.max(...values)];

interface Target {
  label: string;
  /** Where to send; several URLs (instances behind a balancer) share the connections, all at once. */
  url: string | string[];
  body: string;
  headers: Record<string, string>;
  /** The server processes whose CPU time answering this target's requests takes (not the upstream's behind a proxy). */
  servers: ChildProcess[];
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

function figures(latencies: readonly number[], seconds: number): Figures {
  const sorted = sortedCopy(latencies);
  return {
    requestsPerSecond: seconds > 0 ? sorted.length / seconds : 0,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}

/** The targets in turn, starting at a different one each time: no target always runs right after another. */
function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** A child's CPU time so far (user + system, all its threads), in µs, as it reads it itself. */
function cpuTimeOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('cpuMicros' in message)) return;
      child.off('message', listener);
      resolve(Number(message.cpuMicros));
    };
    child.on('message', listener);
    child.send('cpu');
  });
}

async function cpuTimeOfAll(children: readonly ChildProcess[]): Promise<number> {
  const times = await Promise.all(children.map(cpuTimeOf));
  return times.reduce((total, time) => total + time, 0);
}

interface LoadFigures {
  latencies: number[][];
  /** perRound[round][target]: requests per second. */
  perRound: number[][];
  /** cpuPerRound[round][target]: CPU µs of the target's servers per answered request in that round's run. */
  cpuPerRound: number[][];
  /** By target: CPU µs of its servers per answered request, over all its rounds. */
  cpuPerRequest: number[];
}

/** Load: every target in each round, so that a round's figures come from the same few seconds. */
async function measureLoad(targets: readonly Target[]): Promise<LoadFigures> {
  for (const target of targets) await run(target, CONNECTIONS, WARMUP_SECONDS);
  const latencies: number[][] = targets.map(() => []);
  const cpu = targets.map(() => 0);
  const perRound: number[][] = [];
  const cpuPerRound: number[][] = [];
  for (let round = 0; round < LOAD_ROUNDS; round += 1) {
    const rates: number[] = [];
    const costs: number[] = [];
    for (const index of rotated([...targets.keys()], round)) {
      const target = targets[index]!;
      const cpuBefore = await cpuTimeOfAll(target.servers);
      const answered = await run(target, CONNECTIONS, LOAD_ROUND_SECONDS);
      const spent = (await cpuTimeOfAll(target.servers)) - cpuBefore;
      cpu[index]! += spent;
      latencies[index]!.push(...answered);
      rates[index] = answered.length / LOAD_ROUND_SECONDS;
      costs[index] = spent / answered.length;
    }
    perRound.push(rates);
    cpuPerRound.push(costs);
  }
  return { latencies, perRound, cpuPerRound, cpuPerRequest: cpu.map((time, index) => time / latencies[index]!.length) };
}

/** One request on a keep-alive connection, timed from its start to the last byte of a 200 answer, in ms. */
function timeOne(target: Target, url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = httpRequest(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...target.headers } },
      (response) => {
        response.resume();
        response.once('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${target.label}: HTTP ${response.statusCode}`));
          else resolve(performance.now() - started);
        });
        response.once('error', reject);
      },
    );
    request.once('error', reject);
    request.end(target.body);
  });
}

/** Single connection: one request to each target in turn, cycle after cycle; latencies by round and target. */
async function measureSingle(targets: readonly Target[]): Promise<number[][][]> {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const urls = targets.map((target) => (typeof target.url === 'string' ? [target.url] : target.url));
  let sent = 0;
  const cycle = async (into?: number[][]) => {
    for (const index of rotated([...targets.keys()], sent)) {
      const choices = urls[index]!;
      const latency = await timeOne(targets[index]!, choices[sent % choices.length]!, agents[index]!);
      into?.[index]!.push(latency);
    }
    sent += 1;
  };
  try {
    for (let warm = 0; warm < SINGLE_WARMUP_CYCLES; warm += 1) await cycle();
    const rounds: number[][][] = [];
    for (let round = 0; round < SINGLE_ROUNDS; round += 1) {
      const latencies = targets.map((): number[] => []);
      for (let index = 0; index < SINGLE_CYCLES; index += 1) await cycle(latencies);
      rounds.push(latencies);
    }
    return rounds;
  } finally {
    for (const agent of agents) agent.destroy();
  }
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
      return started;
    };
    const uncached = await proxy('uncached');
    const cached = await proxy('cached');
    const onRedis = [await proxy('cached', redis.url), await proxy('cached', redis.url)] as const;

    const query = documentFor(BUILT_IN_OPERATIONS.campaigns!, VARIABLES);
    const direct = JSON.stringify({ query, variables: VARIABLES });
    const proxied = JSON.stringify({ operation: 'campaigns', variables: VARIABLES });
    const list: Target[] = [
      {
        label: 'direct upstream',
        url: marketing.url,
        body: direct,
        headers: { 'x-api-key': API_KEY },
        servers: [marketing.child],
      },
      { label: 'proxy, uncached', url: uncached.url, body: proxied, headers: {}, servers: [uncached.child] },
      { label: 'cached, memory', url: cached.url, body: proxied, headers: {}, servers: [cached.child] },
      { label: 'cached, Redis ×1', url: onRedis[0].url, body: proxied, headers: {}, servers: [onRedis[0].child] },
      {
        label: 'cached, Redis ×2',
        url: onRedis.map((instance) => instance.url),
        body: proxied,
        headers: {},
        servers: onRedis.map((instance) => instance.child),
      },
    ];
    const [DIRECT, UNCACHED, CACHED, REDIS_ONE, REDIS_TWO] = [0, 1, 2, 3, 4] as const;
    const load = await measureLoad(list);
    const single = await measureSingle(list);
    const targets = list.map((target, index) => ({
      label: target.label,
      load: figures(load.latencies[index]!, LOAD_ROUNDS * LOAD_ROUND_SECONDS),
      cpuPerRequestUs: load.cpuPerRequest[index]!,
      single: figures(
        single.flatMap((round) => round[index]!),
        0,
      ),
    }));
    const overheads = single.map((round) => median(round[UNCACHED]!) - median(round[DIRECT]!));
    const ratios = (of: number, to: number) => load.perRound.map((rates) => rates[of]! / rates[to]!);
    const cachedRatios = ratios(CACHED, DIRECT);
    const perCore = load.cpuPerRound.map((costs) => costs[DIRECT]! / costs[CACHED]!);
    return {
      targets,
      p50OverheadMs: median(overheads),
      p50OverheadRangeMs: range(overheads),
      cachedThroughputRatio: median(cachedRatios),
      cachedThroughputRange: range(cachedRatios),
      cachedPerCoreRatio: median(perCore),
      cachedPerCoreRange: range(perCore),
      redisThroughputRatio: median(ratios(REDIS_ONE, DIRECT)),
      twoInstancesRatio: median(ratios(REDIS_TWO, REDIS_ONE)),
      storeCosts: await measureStoreCosts(marketing.url, redis.url),
      hotAnswerReadsPerSecond: await measureHotReads(list[REDIS_ONE]!, redis.url),
      accessLogLineUs: await measureAccessLog(),
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

const HOT_CONNECTIONS = 50;
const HOT_SECONDS = Number(process.env.BENCH_PROXY_HOT_SECONDS ?? 3);

/**
 * One instance on Redis, one hot answer, HOT_CONNECTIONS connections for HOT_SECONDS: the GETs Redis
 * ran (INFO commandstats, reset after a warm-up that cached the answer), per second. Every request is
 * a hit: the instance reads Redis only when its own copy (LOCAL_TTL_MS) has gone.
 */
async function measureHotReads(target: Target, redisUrl: string): Promise<number> {
  const { createClient } = await import('redis');
  const admin = await createClient({ url: redisUrl }).connect();
  try {
    await run(target, HOT_CONNECTIONS, WARMUP_SECONDS);
    await admin.configResetStat();
    await run(target, HOT_CONNECTIONS, HOT_SECONDS);
    const gets = /^cmdstat_get:calls=(\d+)/m.exec(await admin.info('commandstats'))?.[1];
    return Number(gets ?? 0) / HOT_SECONDS;
  } finally {
    await admin.close();
  }
}

const ACCESS_LOG_LINES = 200_000;

/**
 * The default access log's CPU per line, in a process of its own (stdout discarded, as the proxies'
 * above): what it adds to each answer. Measured alone since a difference of two proxies' CPU per
 * answer, one logging and one not, is lost in the noise of a shared machine.
 */
async function measureAccessLog(): Promise<number> {
  const writer = fork(fileURLToPath(import.meta.url), ['access-log'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const cpuMicros = await new Promise<number>((resolve, reject) => {
    writer.once('message', (message) => resolve(Number((message as { cpuMicros: number }).cpuMicros)));
    writer.once('exit', (code) => reject(new Error(`bench access-log exited with code ${code}`)));
  });
  await stopChild(writer);
  return cpuMicros / ACCESS_LOG_LINES;
}

/** The default access log alone: ACCESS_LOG_LINES lines of cached answers, 50 per turn of the event loop. */
async function writeAccessLog(): Promise<void> {
  const { ProxyLog } = await import('../src/proxy/http/log.ts');
  const { jsonLineWriter } = await import('../src/proxy/http/access-log.ts');
  const log = new ProxyLog(jsonLineWriter(), API_KEY);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const lines = async (count: number) => {
    for (let index = 0; index < count; index += 1) {
      if (index % 50 === 0) await turn();
      const entry = log.entry('POST');
      entry.operation = 'campaigns';
      entry.status = 200;
      entry.cache = 'HIT';
      entry.durationMs = Math.round(index % 997) / 100;
      log.write(entry);
    }
    await turn();
  };
  await lines(ACCESS_LOG_LINES / 4);
  const before = process.cpuUsage();
  await lines(ACCESS_LOG_LINES);
  const { user, system } = process.cpuUsage(before);
  process.send!({ cpuMicros: user + system });
}

export function printProxyFigures(result: ProxyBenchResult): void {
  const ms = (value: number) => value.toFixed(2).padStart(8);
  const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
  console.log(
    `\nMarketing proxy: campaigns(limit: 10); load = ${CONNECTIONS} connections, ${LOAD_ROUNDS} rounds of ${LOAD_ROUND_SECONDS} s per target, targets in turn; single = 1 connection, ${SINGLE_ROUNDS} rounds of ${SINGLE_CYCLES} requests per target, one to each in turn`,
  );
  console.log(
    `${'target'.padEnd(18)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU µs'.padStart(9)}  | single:${'p50 ms'.padStart(8)}${'p99 ms'.padStart(9)}`,
  );
  for (const { label, load, cpuPerRequestUs, single } of result.targets) {
    console.log(
      `${label.padEnd(18)}${Math.round(load.requestsPerSecond).toString().padStart(9)} ${ms(load.p50)} ${ms(load.p99)} ${Math.round(cpuPerRequestUs).toString().padStart(8)}  |        ${ms(single.p50)} ${ms(single.p99)}`,
    );
  }
  console.log(
    "CPU µs = CPU time (user + system) of the target's own server processes per answered request under load: the sandbox's for the direct calls, the proxy instances' alone for the others (an uncached call costs the sandbox its share on top).",
  );
  const [low, high] = result.p50OverheadRangeMs;
  console.log(
    `proxy p50 overhead over a direct call (single connection, median of ${SINGLE_ROUNDS} rounds' differences): ${signed(result.p50OverheadMs)} ms (rounds ${signed(low)} … ${signed(high)}; aim ≤ 1 ms)`,
  );
  const [fewest, most] = result.cachedThroughputRange;
  console.log(
    `cached proxy throughput / direct throughput (median of ${LOAD_ROUNDS} rounds' ratios): ${result.cachedThroughputRatio.toFixed(1)}× (rounds ${fewest.toFixed(1)}× … ${most.toFixed(1)}×; aim ≥ 5×)`,
  );
  const [leastPerCore, mostPerCore] = result.cachedPerCoreRange;
  console.log(
    `  per core of the serving process (answers per CPU-second; the load generator's own CPU left out): ${result.cachedPerCoreRatio.toFixed(1)}× (rounds ${leastPerCore.toFixed(1)}× … ${mostPerCore.toFixed(1)}×)`,
  );
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
  console.log(
    `\nOne hot answer, one instance on Redis, ${HOT_CONNECTIONS} connections for ${HOT_SECONDS} s: ${result.hotAnswerReadsPerSecond.toFixed(1)} Redis reads per second (aim: 1, its copy's second)`,
  );
  const cached = result.targets.find(({ label }) => label === 'cached, memory')!.cpuPerRequestUs;
  console.log(
    `Access log (the default JSON lines, ${ACCESS_LOG_LINES} in a process of their own): ${result.accessLogLineUs.toFixed(2)} CPU µs per line, ${((result.accessLogLineUs / cached) * 100).toFixed(1)}% of a cached answer's ${Math.round(cached)} µs above`,
  );
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
  // The parent reads each server's CPU time around its load runs.
  process.on('message', (message) => {
    if (message !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send!({ cpuMicros: user + system });
  });
  process.send!({ url });
}

const [role, ...roleArgs] = process.argv.slice(2);
if (role === 'access-log') {
  await writeAccessLog();
} else if (role === 'marketing' || role === 'proxy') {
  await serveRole(role, roleArgs);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printProxyFigures(await benchProxy());
}
