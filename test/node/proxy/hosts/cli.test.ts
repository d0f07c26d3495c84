/**
 * The `loyalty-proxy` CLI as a child process: it refuses to start on missing or malformed settings
 * (exit code 1, every problem named, the key never echoed), and when configured serves the protocol
 * at /api/marketing only, logs one JSON line per request, and stops cleanly on SIGTERM.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createMarketingProxy } from '../../../../src/proxy/index.ts';
import { readConfig } from '../../../../src/proxy/hosts/config.ts';
import { startRedis, startRedisCluster, type RunningCluster, type RunningRedis } from '../../support/redis.ts';
import { post, startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function runCli(env: Record<string, string>): Cli {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts'], {
    cwd: root,
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function listening(cli: Cli): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/\S+\/api\/marketing)/.exec(cli.stderr());
    if (match) return match[1]!;
    if (cli.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the CLI did not start:\n${cli.stderr()}`);
}

async function stop(cli: Cli): Promise<number | null> {
  if (cli.child.exitCode === null) cli.child.kill('SIGTERM');
  return cli.exited;
}

describe('loyalty-proxy CLI', () => {
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.dispose());
  /** The CLI serving the sandbox's Marketing API on a free loopback port. */
  const serveCli = (env: Record<string, string> = {}) =>
    runCli({
      MARKETING_API_URL: upstream.marketingUrl,
      MARKETING_API_KEY: TEST_API_KEY,
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    });

  it('refuses to start without its required settings, naming each', async () => {
    const cli = runCli({});
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /MARKETING_API_URL is required/);
    assert.match(cli.stderr(), /MARKETING_API_KEY is required/);
  });

  it('refuses malformed settings, without echoing the key', async () => {
    const cli = runCli({
      MARKETING_API_URL: 'marketing.example/graphql',
      MARKETING_API_KEY: TEST_API_KEY,
      PORT: '80a',
      ALLOWED_ORIGINS: 'https://shop.example, shop.example/path',
      REDIS_URL: 'http://127.0.0.1:6379',
      REQUIRE_SIGNIN: 'true',
    });
    assert.equal(await cli.exited, 1);
    const message = cli.stderr();
    for (const problem of [
      /MARKETING_API_URL must be an http\(s\) URL/,
      /PORT must be a port number/,
      /ALLOWED_ORIGINS must be/,
      /REDIS_URL must be/,
      /REQUIRE_SIGNIN needs CONNECT_URL/,
    ]) {
      assert.match(message, problem);
    }
    assert.ok(!message.includes(TEST_API_KEY));
    const outOfRange = runCli({
      MARKETING_API_URL: upstream.marketingUrl,
      MARKETING_API_KEY: TEST_API_KEY,
      PORT: '70000',
    });
    assert.equal(await outOfRange.exited, 1);
    assert.match(outOfRange.stderr(), /PORT must be a port number/);
  });

  it('reads REDIS_CACHE_URL as the Redis for cached answers, only beside REDIS_URL', () => {
    const base = { MARKETING_API_URL: upstream.marketingUrl, MARKETING_API_KEY: TEST_API_KEY };
    const both = readConfig({ ...base, REDIS_URL: 'redis://records:6379', REDIS_CACHE_URL: 'redis://cache:6379' });
    assert.deepEqual([both.redisUrl, both.redisCacheUrl], ['redis://records:6379', 'redis://cache:6379']);
    assert.throws(
      () => readConfig({ ...base, REDIS_CACHE_URL: 'redis://cache:6379' }),
      /REDIS_CACHE_URL needs REDIS_URL/,
    );
    assert.throws(
      () => readConfig({ ...base, REDIS_URL: 'redis://records:6379', REDIS_CACHE_URL: 'http://cache:6379' }),
      /REDIS_CACHE_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });

  it('reads REQUIRE_SIGNIN_CAMPAIGNS as the campaigns that need sign-in, which need CONNECT_URL', () => {
    const base = { MARKETING_API_URL: upstream.marketingUrl, MARKETING_API_KEY: TEST_API_KEY };
    const connect = { CONNECT_URL: 'https://connect.example', CONNECT_CLIENT_ID: 'shop-app' };
    const listed = readConfig({ ...base, ...connect, REQUIRE_SIGNIN_CAMPAIGNS: ' camp-a, ,camp-b ' });
    assert.deepEqual(listed.requireSignin, ['camp-a', 'camp-b']);
    assert.equal(listed.clientId, 'shop-app');
    assert.equal(
      readConfig({ ...base, ...connect, REQUIRE_SIGNIN: 'true', REQUIRE_SIGNIN_CAMPAIGNS: 'camp-a' }).requireSignin,
      true,
    );
    assert.equal(readConfig(base).requireSignin, false);
    assert.throws(
      () => readConfig({ ...base, REQUIRE_SIGNIN_CAMPAIGNS: 'camp-a' }),
      /REQUIRE_SIGNIN_CAMPAIGNS needs CONNECT_URL/,
    );
  });

  it('refuses to start with REQUIRE_SIGNIN but without CONNECT_CLIENT_ID (tokens of any app would do)', async () => {
    const cli = runCli({
      MARKETING_API_URL: upstream.marketingUrl,
      MARKETING_API_KEY: TEST_API_KEY,
      CONNECT_URL: 'https://connect.example',
      REQUIRE_SIGNIN: 'true',
    });
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /REQUIRE_SIGNIN needs CONNECT_CLIENT_ID/);
    const base = {
      MARKETING_API_URL: upstream.marketingUrl,
      MARKETING_API_KEY: TEST_API_KEY,
      CONNECT_URL: 'https://connect.example',
    };
    assert.throws(
      () => readConfig({ ...base, REQUIRE_SIGNIN_CAMPAIGNS: 'camp-a' }),
      /REQUIRE_SIGNIN_CAMPAIGNS needs CONNECT_CLIENT_ID/,
    );
    assert.equal(readConfig({ ...base, REQUIRE_SIGNIN: 'true', CONNECT_CLIENT_ID: 'shop-app' }).clientId, 'shop-app');
  });

  it('refuses a user or password in MARKETING_API_URL or CONNECT_URL, without printing them', async () => {
    const cli = runCli({
      MARKETING_API_URL: 'https://user:s3cret-pass@marketing.example/graphql',
      MARKETING_API_KEY: TEST_API_KEY,
      CONNECT_URL: 'https://me:other-s3cret@connect.example',
    });
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /MARKETING_API_URL must not contain a user or password/);
    assert.match(cli.stderr(), /CONNECT_URL must not contain a user or password/);
    assert.ok(!/s3cret/.test(cli.stderr()));
    const malformed = runCli({
      MARKETING_API_URL: 'ftp://user:s3cret-pass@marketing.example',
      MARKETING_API_KEY: TEST_API_KEY,
    });
    assert.equal(await malformed.exited, 1);
    assert.match(malformed.stderr(), /MARKETING_API_URL must be an http\(s\) URL/);
    assert.ok(!/s3cret/.test(malformed.stderr()));
    assert.throws(
      () =>
        createMarketingProxy({
          upstreamUrl: 'https://user:s3cret-pass@marketing.example/graphql',
          apiKey: TEST_API_KEY,
        }),
      (error: Error) => /must not contain a user or password/.test(error.message) && !error.message.includes('s3cret'),
    );
  });

  it('warns when the key or tokens would cross the network over plain http', async () => {
    const cli = runCli({
      MARKETING_API_URL: 'http://marketing.example/graphql',
      MARKETING_API_KEY: TEST_API_KEY,
      CONNECT_URL: 'http://connect.example',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    try {
      await listening(cli);
      assert.match(
        cli.stderr(),
        /warning: MARKETING_API_URL is plain http: the API key crosses the network unencrypted/,
      );
      assert.match(cli.stderr(), /warning: CONNECT_URL is plain http/);
    } finally {
      await stop(cli);
    }
  });

  it('serves the protocol at /api/marketing only, with one JSON access-log line per request', async () => {
    const cli = serveCli({
      ALLOWED_ORIGINS: 'https://shop.example',
    });
    try {
      const url = await listening(cli);
      const reply = await post(
        url,
        { operation: 'campaigns', variables: { limit: 1 } },
        { origin: 'https://shop.example' },
      );
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get('access-control-allow-origin'), 'https://shop.example');
      assert.equal(reply.body.data.campaigns.items.length, 1);
      const elsewhere = await post(url.replace('/api/marketing', '/graphql'), { operation: 'campaigns' });
      assert.equal(elsewhere.status, 404);
      assert.equal(elsewhere.body.error.code, 'not_found');
      const withQuery = await post(`${url}?x=1`, { operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
      assert.equal(withQuery.status, 200);
      assert.equal(await stop(cli), 0);
      const lines = cli
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { operation: string; status: number });
      assert.deepEqual(
        lines.map((line) => [line.operation, line.status]),
        [
          ['campaigns', 200],
          ['campaign', 200],
        ],
      );
      assert.ok(!cli.stdout().includes(TEST_API_KEY) && !cli.stderr().includes(TEST_API_KEY));
      assert.ok(!cli.stderr().includes('warning'), 'plain http on this machine is fine');
    } finally {
      await stop(cli);
    }
  });

  it('with REDIS_URL at a closed port: starts, answers every read far under the connect wait, logs the outage once, and uses Redis once it answers', async (t) => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address() as { port: number };
        probe.close(() => resolve(address.port));
      });
    });
    const cli = serveCli({
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    let redis: RunningRedis | undefined;
    try {
      const url = await listening(cli);
      const timed = async (body: unknown, headers: Record<string, string> = {}) => {
        const started = performance.now();
        const reply = await post(url, body, headers);
        return { reply, ms: performance.now() - started };
      };
      const reads = [];
      for (let index = 0; index < 10; index += 1)
        reads.push(await timed({ operation: 'campaigns', variables: { limit: (index % 3) + 1 } }));
      assert.deepEqual(
        reads.map(({ reply }) => reply.status),
        Array<number>(10).fill(200),
      );
      // The store's connect wait is 2 s: a read that waited for it even once would show.
      const slowest = Math.max(...reads.map(({ ms }) => ms));
      assert.ok(slowest < 1_000, `slowest read ${slowest.toFixed(0)} ms`);
      const sorted = reads.map(({ ms }) => ms).sort((a, b) => a - b);
      t.diagnostic(`reads with Redis down: median ${sorted[5]!.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`);
      const claim = await timed(
        { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
        { 'idempotency-key': 'cli-closed-redis' },
      );
      assert.deepEqual([claim.reply.status, claim.reply.body.error.code], [503, 'store_unavailable']);
      assert.ok(claim.ms < 1_000, `claim answered in ${claim.ms.toFixed(0)} ms`);
      assert.equal(cli.stderr().match(/unreachable/g)?.length, 1, cli.stderr());

      redis = await startRedis({ port });
      const deadline = Date.now() + 10_000;
      while (!/connected again/.test(cli.stderr())) {
        assert.ok(Date.now() < deadline, `reconnects in the background:\n${cli.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const query = { operation: 'campaigns', variables: { limit: 7 } };
      assert.equal((await post(url, query)).headers.get('x-cache'), 'MISS');
      assert.equal((await post(url, query)).headers.get('x-cache'), 'HIT', 'the cache is back in Redis');
    } finally {
      await stop(cli);
      await redis?.stop();
    }
  });

  it('closes connections whose headers arrive too slowly after the proxy timeout (10 s), not after Node default (60 s)', async () => {
    const cli = serveCli();
    try {
      const { hostname, port } = new URL(await listening(cli));
      // Each slow client sends one more header line every half second and never ends its headers.
      const slowClient = () =>
        new Promise<{ ms: number; reply: string }>((resolve) => {
          const started = Date.now();
          let reply = '';
          const socket = connect(Number(port), hostname, () => {
            socket.write(`POST /api/marketing HTTP/1.1\r\nHost: ${hostname}\r\n`);
          });
          const trickle = setInterval(() => socket.write('X-Slow: header\r\n'), 500);
          socket.on('data', (chunk) => (reply += chunk));
          socket.on('error', () => undefined);
          socket.on('close', () => {
            clearInterval(trickle);
            resolve({ ms: Date.now() - started, reply });
          });
        });
      const closed = await Promise.all(Array.from({ length: 5 }, slowClient));
      for (const { ms, reply } of closed) {
        assert.ok(ms >= 9_000 && ms < 15_000, `closed after ${ms} ms`);
        assert.match(reply, /^HTTP\/1\.1 408/);
      }
      const reply = await post(`http://${hostname}:${port}/api/marketing`, {
        operation: 'campaigns',
        variables: { limit: 1 },
      });
      assert.equal(reply.status, 200, 'a normal client is served all along');
    } finally {
      await stop(cli);
    }
  });

  describe('with REDIS_URL', () => {
    let redis: RunningRedis;
    before(async () => {
      redis = await startRedis();
    });
    after(() => redis?.stop());

    it('keeps its state in Redis', async () => {
      const cli = serveCli({
        REDIS_URL: redis.url,
      });
      try {
        const url = await listening(cli);
        assert.match(cli.stderr(), /shared Redis store/);
        const reply = await post(
          url,
          { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
          { 'idempotency-key': 'cli-redis-key' },
        );
        assert.equal(reply.status, 200, reply.text);
        const replay = await post(
          url,
          { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
          { 'idempotency-key': 'cli-redis-key' },
        );
        assert.equal(replay.headers.get('idempotent-replayed'), 'true');
        const { createClient } = await import('redis');
        const client = await createClient({ url: redis.url }).connect();
        try {
          assert.ok((await client.keys('loyalty-proxy:idem:*')).length > 0, 'the idempotency record is in Redis');
        } finally {
          await client.close();
        }
      } finally {
        assert.equal(await stop(cli), 0);
      }
    });
  });
});

describe('loyalty-proxy doctor with REDIS_URL', () => {
  let upstream: Upstream;
  let redis: RunningRedis;
  let cluster: RunningCluster;
  before(async () => {
    [upstream, redis, cluster] = await Promise.all([startUpstream(), startRedis(), startRedisCluster()]);
  });
  after(() => Promise.all([upstream?.dispose(), redis?.stop(), cluster?.stop()]));

  const doctor = async (env: Record<string, string>) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts', 'doctor'], {
      cwd: root,
      env: { ...baseEnv, MARKETING_API_URL: upstream.marketingUrl, MARKETING_API_KEY: TEST_API_KEY, ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, stdout };
  };

  it('says it found one Redis, and that cached answers share it', async () => {
    const report = await doctor({ REDIS_URL: redis.url });
    assert.equal(report.code, 0, report.stdout);
    assert.match(
      report.stdout,
      new RegExp(`\\[store\\] Claim records, locks and rate limits in one Redis at 127\\.0\\.0\\.1:${redis.port}`),
    );
    assert.match(report.stdout, /maxmemory-policy: noeviction/);
    assert.match(report.stdout, /Cached answers share the Redis of claim records/);
  });

  it('says it found a Redis Cluster from one node’s URL', async () => {
    const report = await doctor({ REDIS_URL: cluster.nodes[1]!.url });
    assert.equal(report.code, 0, report.stdout);
    assert.match(report.stdout, /in a Redis Cluster of 3 masters \(found at 127\.0\.0\.1:\d+\), all in one hash slot/);
  });

  it('finds a Redis of claim records that evicts, or that does not answer, blocking', async () => {
    const { createClient } = await import('redis');
    const admin = await createClient({ url: redis.url }).connect();
    try {
      await admin.configSet('maxmemory-policy', 'allkeys-lru');
      const evicting = await doctor({ REDIS_URL: redis.url });
      assert.equal(evicting.code, 1, evicting.stdout);
      assert.match(evicting.stdout, /Cannot work:[\s\S]*maxmemory-policy allkeys-lru[\s\S]*noeviction/);
    } finally {
      await admin.configSet('maxmemory-policy', 'noeviction');
      await admin.close();
    }
    const closed = await doctor({ REDIS_URL: 'redis://127.0.0.1:1' });
    assert.equal(closed.code, 1, closed.stdout);
    assert.match(closed.stdout, /The Redis store does not answer \(127\.0\.0\.1:1\)/);
  });
});
