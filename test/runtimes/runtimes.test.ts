/**
 * One proxy behaviour suite, run against the handler hosted in every runtime merchants deploy it to:
 * Node http, Express 5, a Next.js route handler, Bun, Deno and workerd (wrangler dev). Each runtime
 * is started once, as a child process serving a small host file from test/runtimes/hosts, in a
 * merchant's project folder where the packed package is installed as a merchant installs it (only
 * loyalty-widgets for the Fetch runtimes, with the Node adapter's peers for Node), with the real
 * Marketing sandbox behind a switchboard that can also fail the ways real upstreams fail.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_BODY_BYTES } from '../../src/proxy/index.ts';
import { startUpstream, TEST_API_KEY, type Upstream } from '../node/support/proxy-server.ts';
import { call, requestCoupon } from './support/client.ts';
import { installProjects, RUNTIMES, startHost, type RunningHost } from './support/hosts.ts';
import { FAILING_CAMPAIGNS, startSwitchboard, type Switchboard } from './support/switchboard.ts';

const ALLOWED_ORIGIN = 'https://shop.example';
const PER_ADDRESS_LIMIT = 3;
const COUPON_CAMPAIGN = 'camp-harbor-morning-latte';
const CACHE_TTL_SECONDS = 2;

/** `RUNTIMES=Deno,workerd` runs only the runtimes whose names contain one of these. */
const only = process.env.RUNTIMES?.split(',')
  .map((name) => name.trim().toLowerCase())
  .filter(Boolean);
const selected = RUNTIMES.filter(({ name }) => !only || only.some((part) => name.toLowerCase().includes(part)));

let sandbox: Upstream;
let switchboard: Switchboard;
let merchants: Awaited<ReturnType<typeof installProjects>>;

before(async () => {
  sandbox = await startUpstream();
  switchboard = await startSwitchboard(sandbox.marketingUrl, TEST_API_KEY);
  // One project per kind of host the suite runs (RUNTIMES=… may pick a few).
  merchants = await installProjects(selected.map((runtime) => runtime.project));
});
after(async () => {
  await switchboard?.close();
  await sandbox?.dispose();
  await merchants?.remove();
});

/** The access-log lines a host printed (one JSON object per line, among the runtime's own output). */
function accessLog(host: RunningHost): { operation?: string; status: number; error?: string; detail?: string }[] {
  return host
    .output()
    .split('\n')
    .flatMap((line) => {
      const start = line.indexOf('{"time"');
      if (start < 0) return [];
      try {
        return [JSON.parse(line.slice(start))];
      } catch {
        return [];
      }
    });
}

/** Waits (up to 5 s, for a loaded machine) until `check` holds. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(what);
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

for (const runtime of selected) {
  describe(`Marketing proxy in ${runtime.name}`, () => {
    let host: RunningHost;
    let url: string;

    before(async () => {
      host = await startHost(runtime, merchants.projects[runtime.project]!.dir, {
        MARKETING_API_URL: switchboard.url,
        MARKETING_API_KEY: TEST_API_KEY,
        ALLOWED_ORIGINS: ALLOWED_ORIGIN,
        // Where every shopper shares one address, the limit would stop the suite, not an abuser.
        PER_ADDRESS_LIMIT: String(runtime.noClientAddress ? 1000 : PER_ADDRESS_LIMIT),
        CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS),
      });
      url = host.url;
    });
    after(async () => {
      await host?.stop();
    });

    it('serves the named operations and refuses everything else', async () => {
      const page = await call(url, { body: { operation: 'campaigns', variables: { limit: 2 } } });
      assert.equal(page.status, 200, page.text);
      assert.match(String(page.headers['content-type']), /^application\/json/);
      assert.equal(page.body.data.campaigns.items.length, 2);
      assert.equal(typeof page.body.data.campaigns.nextToken, 'string');

      // Reads also come as a cacheable GET, the same page; a mutation never does, nor another method.
      // (Next.js answers the methods a route does not export itself, with its own 405.)
      const read = await call(`${url}?operation=campaigns&limit=2`, { method: 'GET' });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body, page.body);
      assert.match(String(read.headers.etag), /^"[0-9a-f]+"$/);
      const bare = await call(url, { method: 'GET' });
      assert.deepEqual([bare.status, bare.body.error.code], [400, 'bad_request']);
      const mutation = await call(`${url}?operation=requestCoupon&campaignId=camp-harbor-beans`, { method: 'GET' });
      assert.deepEqual([mutation.status, mutation.body.error.code], [405, 'method_not_allowed']);
      const put = await call(url, { method: 'PUT', body: { operation: 'campaigns' } });
      assert.equal(put.status, 405);
      const raw = await call(url, { body: { query: '{ campaigns { items { id } } }' } });
      assert.deepEqual([raw.status, raw.body.error.code], [400, 'bad_request']);
      const unknown = await call(url, { body: { operation: 'deleteEverything' } });
      assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'unknown_operation']);
      const form = await call(url, { body: 'operation=campaigns', headers: { 'content-type': 'text/plain' } });
      assert.deepEqual([form.status, form.body.error.code], [415, 'unsupported_media_type']);
      const huge = await call(url, { body: { operation: 'campaign', variables: { id: 'x'.repeat(MAX_BODY_BYTES) } } });
      assert.deepEqual([huge.status, huge.body.error.code], [413, 'payload_too_large']);
    });

    it('answers listed origins with CORS headers and refuses other origins without them', async () => {
      const preflight = await call(url, {
        method: 'OPTIONS',
        headers: {
          origin: ALLOWED_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, idempotency-key',
        },
      });
      assert.ok(preflight.status === 204 || preflight.status === 200, `preflight ${preflight.status}`);
      assert.equal(preflight.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
      assert.match(String(preflight.headers['access-control-allow-headers']), /idempotency-key/);
      const allowed = await call(url, {
        body: { operation: 'campaign', variables: { id: COUPON_CAMPAIGN } },
        headers: { origin: ALLOWED_ORIGIN },
      });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
      const evil = await call(url, {
        body: { operation: 'campaign', variables: { id: COUPON_CAMPAIGN } },
        headers: { origin: 'https://evil.example' },
      });
      assert.deepEqual([evil.status, evil.body.error.code], [403, 'origin_not_allowed']);
      assert.equal(evil.headers['access-control-allow-origin'], undefined);
    });

    it('serves a repeated query from its cache, then stale while one background request refreshes it', async () => {
      const query = (variables: Record<string, unknown>) => call(url, { body: { operation: 'campaigns', variables } });
      const loadsBefore = sandbox.stats().byOperation.campaigns ?? 0;
      const first = await query({ businessAccountId: 'biz-harbor-coffee', limit: 3 });
      const second = await query({ limit: 3, businessAccountId: 'biz-harbor-coffee' });
      assert.deepEqual([first.status, first.headers['x-cache']], [200, 'MISS']);
      assert.deepEqual([second.status, second.headers['x-cache']], [200, 'HIT']);
      assert.equal(second.text, first.text);

      await new Promise((wait) => setTimeout(wait, CACHE_TTL_SECONDS * 1000 + 100));
      const stale = await query({ businessAccountId: 'biz-harbor-coffee', limit: 3 });
      assert.deepEqual([stale.status, stale.headers['x-cache']], [200, 'STALE']);
      // The refresh runs after the stale answer went out: it must still complete (workerd ends a request's work when it answers).
      const refreshed = async () =>
        (await query({ businessAccountId: 'biz-harbor-coffee', limit: 3 })).headers['x-cache'] === 'HIT';
      await eventually(refreshed, 'the stale answer was never refreshed');
      assert.equal((sandbox.stats().byOperation.campaigns ?? 0) - loadsBefore, 2, 'one background request');
    });

    it('mints one coupon for concurrent requests under one Idempotency-Key', async () => {
      const before = sandbox.stats().couponsMinted;
      const key = `concurrent-${crypto.randomUUID()}`;
      const replies = await Promise.all(
        Array.from({ length: 6 }, () => requestCoupon(url, COUPON_CAMPAIGN, { key, from: '127.0.0.11' })),
      );
      assert.ok(
        replies.every((reply) => reply.status === 200),
        replies.map((reply) => reply.text).join('\n'),
      );
      assert.equal(new Set(replies.map((reply) => reply.body.data.requestCoupon.coupon.code)).size, 1);
      assert.equal(replies.filter((reply) => reply.headers['idempotent-replayed'] === 'true').length, 5);
      assert.equal(sandbox.stats().couponsMinted - before, 1);
    });

    it('never follows an upstream redirect: 502, and the key stays with the configured upstream', async () => {
      const reply = await requestCoupon(url, FAILING_CAMPAIGNS.redirect, {
        key: crypto.randomUUID(),
        from: '127.0.0.12',
      });
      assert.deepEqual([reply.status, reply.body.error.code], [502, 'upstream_error'], reply.text);
      assert.deepEqual(switchboard.keysSeenByTrap, []);
    });

    it('frees the Idempotency-Key when the upstream refuses the connection, and logs why', async () => {
      const key = `refused-${crypto.randomUUID()}`;
      await switchboard.refuseConnections();
      // Let the host see its pooled connections close, so that this request opens a new one.
      await new Promise((wait) => setTimeout(wait, 100));
      let refused;
      try {
        refused = await requestCoupon(url, COUPON_CAMPAIGN, { key, from: '127.0.0.13' });
      } finally {
        await switchboard.acceptConnections();
      }
      assert.deepEqual([refused.status, refused.body.error.code], [502, 'upstream_unavailable'], refused.text);
      assert.doesNotMatch(refused.body.error.message, /may have created a coupon/);
      await eventually(
        () => accessLog(host).some((entry) => entry.error === 'upstream_unavailable' && !!entry.detail),
        'no detail logged',
      );
      const retried = await requestCoupon(url, COUPON_CAMPAIGN, { key, from: '127.0.0.13' });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
    });

    it('keeps the 502 of a connection dropped after sending for its Idempotency-Key, saying a coupon may exist', async () => {
      const key = `dropped-${crypto.randomUUID()}`;
      const first = await requestCoupon(url, FAILING_CAMPAIGNS.drop, { key, from: '127.0.0.14' });
      assert.deepEqual([first.status, first.body.error.code], [502, 'upstream_unavailable'], first.text);
      assert.match(first.body.error.message, /may have created a coupon/);
      const replay = await requestCoupon(url, FAILING_CAMPAIGNS.drop, { key, from: '127.0.0.14' });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.deepEqual(replay.body, first.body);
    });

    it('never lets the key out: not in an upstream error it echoes, not in the log', async () => {
      const reply = await requestCoupon(url, FAILING_CAMPAIGNS.echoKey, { from: '127.0.0.15' });
      assert.equal(reply.status, 502);
      assert.equal(reply.body.error.code, 'upstream_error');
      assert.match(reply.body.error.message, /\[redacted\]/);
      assert.ok(!reply.text.includes(TEST_API_KEY));
      assert.ok(!host.output().includes(TEST_API_KEY), 'the host printed the key');
    });

    it(
      "counts each shopper's own address: one abuser does not block the others",
      { skip: runtime.noClientAddress },
      async () => {
        const abuser = [];
        for (let index = 0; index <= PER_ADDRESS_LIMIT; index += 1)
          abuser.push(await requestCoupon(url, COUPON_CAMPAIGN, { from: '127.0.0.16' }));
        assert.deepEqual(
          abuser.map((reply) => reply.status),
          [...Array<number>(PER_ADDRESS_LIMIT).fill(200), 429],
        );
        const neighbour = await requestCoupon(url, COUPON_CAMPAIGN, { from: '127.0.0.17' });
        assert.equal(neighbour.status, 200, neighbour.text);
      },
    );
  });
}
