/**
 * One claim, one coupon through a store outage: two proxy instances on one real Redis (an append-only
 * file fsynced on every write), a coupon minted upstream whose answer is held until redis-server is
 * killed (SIGKILL), so the instance cannot record it. Redis comes back with its data, or without it,
 * and the same Idempotency-Key is tried again on both instances the way the widget does (503 and 504
 * are retried with the same key): one mint in all, and every answer that carries a code carries it.
 * The same on a three-master Redis Cluster, whose node holding the claim records is the one killed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisStore } from '../../../../src/proxy/redis-store.ts';
import type { ProxyStore } from '../../../../src/proxy/stores/contract.ts';
import { startRedis, startRedisCluster, type RunningCluster, type RunningRedis } from '../../support/redis.ts';
import {
  post,
  serveProxy,
  startUpstream,
  type JsonReply,
  type ProxyUnderTest,
  type Upstream,
} from '../../support/proxy-server.ts';
import { startSlowMarketing, type SlowMarketing } from '../../../support/slow-marketing.ts';

const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-morning-latte' } };
const codeOf = (reply: JsonReply): string | undefined => reply.body?.data?.requestCoupon?.coupon?.code;

let sandbox: Upstream;
let slow: SlowMarketing;
before(async () => {
  sandbox = await startUpstream();
  slow = await startSlowMarketing(sandbox.marketingUrl, 0);
});
after(async () => {
  await slow?.close();
  await sandbox?.dispose();
});

/** Waits until `check` holds (polling), for at most `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The Redis that keeps the claim records: killed, and started again with its data or without. */
interface ClaimsRedis {
  url: string;
  kill(): Promise<void>;
  restart(withData: boolean): Promise<void>;
  stop(): Promise<void>;
}

async function oneRedis(): Promise<ClaimsRedis> {
  const dirs = [mkdtempSync(join(tmpdir(), 'redis-outage-'))];
  let redis: RunningRedis = await startRedis({ appendOnlyDir: dirs[0] });
  return {
    url: redis.url,
    kill: () => redis.kill(),
    async restart(withData) {
      if (!withData) dirs.push(mkdtempSync(join(tmpdir(), 'redis-outage-')));
      redis = await startRedis({ port: redis.port, appendOnlyDir: dirs.at(-1) });
    },
    async stop() {
      await redis.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function clusterNodeOfClaims(keyPrefix: string): Promise<ClaimsRedis> {
  const cluster: RunningCluster = await startRedisCluster();
  let node = await cluster.nodeOf(`${keyPrefix}{claims}:idem:any`);
  return {
    url: cluster.url,
    kill: () => node.kill(),
    async restart(withData) {
      node = await cluster.restart(node, withData);
    },
    stop: () => cluster.stop(),
  };
}

for (const [kind, start] of [
  ['Redis', () => oneRedis()],
  ['A Redis Cluster node', (keyPrefix: string) => clusterNodeOfClaims(keyPrefix)],
] as const)
  for (const restart of ['with its data', 'without its data'] as const) {
    describe(`${kind} killed between a mint and its recording, back ${restart}`, () => {
      let redis: ClaimsRedis;
      let stores: ProxyStore[];
      let instances: ProxyUnderTest[];
      const stateChanges: string[] = [];

      before(async () => {
        const keyPrefix = `outage-${randomUUID()}:`;
        redis = await start(keyPrefix);
        stores = [0, 1].map(() =>
          createRedisStore({
            url: redis.url,
            keyPrefix,
            // Long enough for a first connection on a busy machine (a claim before it is refused 503),
            // short enough that a claim while Redis is down is refused soon.
            connectWaitMs: 2_000,
            onError: () => {},
            onStateChange: (message) => stateChanges.push(message),
          }),
        );
        instances = await Promise.all(
          stores.map((store) => serveProxy({ upstreamUrl: slow.url, store, timeoutMs: 3_000, introspection: false })),
        );
      });
      after(async () => {
        await Promise.all(instances.map((instance) => instance.close()));
        await Promise.all(stores.map((store) => store.close?.()));
        await redis?.stop();
      });

      it('one mint in all, the same code to every answer that carries one', async () => {
        const [a, b] = instances as [ProxyUnderTest, ProxyUnderTest];
        const headers = { 'idempotency-key': randomUUID() };
        const minted = sandbox.stats().couponsMinted;
        const held = slow.holdNextMint();
        const first = post(a.url, coupon, headers);
        const code = await Promise.race([
          held.minted,
          first.then((reply) => assert.fail(`the claim was answered before its mint: ${reply.status} ${reply.text}`)),
        ]);
        await redis.kill();
        held.release();

        const replies: JsonReply[] = [await first];
        assert.equal(replies[0]!.status, 200, replies[0]!.text);
        assert.equal(codeOf(replies[0]!), code, 'the caller gets the minted coupon although the store is down');
        assert.ok(
          a.logs.some((entry) => entry.method === 'STORE' && entry.error === 'store_unavailable'),
          'the unrecorded outcome is logged as kept',
        );
        const whileDown = await post(b.url, coupon, headers);
        assert.deepEqual([whileDown.status, whileDown.body.error.code], [503, 'store_unavailable']);
        replies.push(whileDown);

        await redis.restart(restart === 'with its data');
        // The widget's way: 503 and 504 are tried again with the same key, here on both instances in turn.
        const deadline = Date.now() + 20_000;
        for (let turn = 0; Date.now() < deadline; turn += 1) {
          const reply = await post(instances[turn % 2]!.url, coupon, headers);
          replies.push(reply);
          if (reply.status === 200 && replies.at(-2)!.status === 200 && turn >= 1) break;
          assert.ok([200, 503, 504].includes(reply.status), `${reply.status}: ${reply.text}`);
          if (reply.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const last = replies.slice(-2);
        assert.deepEqual(
          last.map((reply) => reply.status),
          [200, 200],
          `both instances answer the coupon in the end: ${replies.map((reply) => reply.status).join()}`,
        );
        assert.deepEqual([...new Set(replies.map(codeOf).filter((value) => value !== undefined))], [code]);
        assert.equal(sandbox.stats().couponsMinted - minted, 1, 'one mint in all');
        await until(
          () => a.logs.some((entry) => entry.method === 'STORE' && /written/.test(entry.detail ?? '')),
          5_000,
          'the kept outcome is logged as written',
        );
        if (restart === 'without its data') {
          assert.ok(
            stateChanges.some((message) => /without its data/.test(message)),
            stateChanges.join('\n'),
          );
        }
      });
    });
  }
