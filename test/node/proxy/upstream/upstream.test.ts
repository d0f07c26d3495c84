/**
 * The proxy's side towards the Marketing API, over real HTTP: the response cache (hits, in-flight
 * sharing, stale-while-revalidate) against the sandbox, and failures against hand-made upstreams
 * (slow → 504, down → 502, one dropped connection → one retry for queries only, key echoed → scrubbed).
 */
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeTransport } from '../../../../src/proxy/node.ts';
import type { UpstreamTransport } from '../../../../src/proxy/index.ts';
import {
  post,
  serveProxy,
  startFakeUpstream,
  startUpstream,
  TEST_API_KEY,
  type ProxyUnderTest,
  type Upstream,
} from '../../support/proxy-server.ts';

/** For hand-made upstreams that count or script every request: no schema reading in between. */
const COUNTED = { introspection: false } as const;

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

describe('Marketing proxy towards the upstream', () => {
  let upstream: Upstream;
  const campaignsCalls = () => upstream.stats().byOperation.campaigns ?? 0;

  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.dispose());

  describe('response cache', () => {
    let proxy: ProxyUnderTest;
    before(async () => {
      proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl });
    });
    after(() => proxy.close());

    it('answers a repeated query from the cache, keyed by operation and variables (in any order)', async () => {
      const before = campaignsCalls();
      const first = await post(proxy.url, {
        operation: 'campaigns',
        variables: { limit: 3, businessAccountId: 'biz-harbor-coffee' },
      });
      const second = await post(proxy.url, {
        operation: 'campaigns',
        variables: { businessAccountId: 'biz-harbor-coffee', limit: 3 },
      });
      assert.equal(first.headers.get('x-cache'), 'MISS');
      assert.equal(second.headers.get('x-cache'), 'HIT');
      assert.equal(second.text, first.text);
      assert.equal(second.headers.get('cache-control'), 'public, max-age=30, stale-while-revalidate=120');
      assert.equal(campaignsCalls() - before, 1);
      const other = await post(proxy.url, {
        operation: 'campaigns',
        variables: { limit: 4, businessAccountId: 'biz-harbor-coffee' },
      });
      assert.equal(other.headers.get('x-cache'), 'MISS');
      assert.equal(campaignsCalls() - before, 2);
      assert.deepEqual(
        proxy.logs.slice(-3).map((entry) => entry.cache),
        ['MISS', 'HIT', 'MISS'],
      );
    });

    it('shares one upstream call among concurrent identical queries', async () => {
      const before = campaignsCalls();
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => post(proxy.url, { operation: 'campaigns', variables: { limit: 7 } })),
      );
      assert.ok(replies.every((reply) => reply.status === 200));
      assert.equal(new Set(replies.map((reply) => reply.text)).size, 1);
      assert.equal(campaignsCalls() - before, 1);
    });

    it('never caches errors or coupons', async () => {
      const before = upstream.stats().byOperation;
      for (let index = 0; index < 2; index += 1) {
        const error = await post(proxy.url, { operation: 'campaigns', variables: { nextToken: 'forged' } });
        assert.equal(error.status, 400);
        assert.equal(error.headers.get('cache-control'), 'no-store');
        assert.equal(error.headers.get('x-cache'), null);
        await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } });
      }
      const after = upstream.stats().byOperation;
      assert.equal(
        (after.campaigns ?? 0) - (before.campaigns ?? 0),
        0,
        'a cursor the proxy did not issue never goes upstream',
      );
      assert.equal((after.requestCoupon ?? 0) - (before.requestCoupon ?? 0), 2);
    });

    it('serves a stale entry at once while one background request refreshes it, then expires it', async () => {
      // The cache's clock is moved by hand (Date only: sockets and timers run as usual), so each
      // answer is decided by the entry's age, however slow the machine.
      mock.timers.enable({ apis: ['Date'], now: Date.now() });
      const quick = await serveProxy({
        upstreamUrl: upstream.marketingUrl,
        cache: { ttlSeconds: 0.2, staleWhileRevalidateSeconds: 0.6 },
      });
      try {
        const query = { operation: 'businessAccounts', variables: { limit: 2 } };
        const calls = () => upstream.stats().byOperation.businessAccounts ?? 0;
        const state = async () => (await post(quick.url, query)).headers.get('x-cache');
        const before = calls();
        assert.equal(await state(), 'MISS');
        mock.timers.tick(199);
        assert.equal(await state(), 'HIT', 'fresh until its ttl');
        mock.timers.tick(1);
        assert.deepEqual(await Promise.all([state(), state()]), ['STALE', 'STALE']);
        // Stale answers go on until the one refresh has stored its answer: that HIT is the refresh done.
        const deadline = performance.now() + 10_000;
        let next: string | null;
        while ((next = await state()) === 'STALE' && performance.now() < deadline);
        assert.equal(next, 'HIT', 'the refreshed entry is served fresh');
        assert.equal(calls() - before, 2, 'one refresh for all the stale answers');
        mock.timers.tick(799);
        assert.equal(await state(), 'STALE', 'stale up to ttl + stale-while-revalidate');
        while ((next = await state()) === 'STALE' && performance.now() < deadline);
        assert.equal(next, 'HIT');
        mock.timers.tick(800);
        assert.equal(await state(), 'MISS', 'past stale-while-revalidate it is gone');
        assert.equal(calls() - before, 4);
      } finally {
        await quick.close();
        mock.timers.reset();
      }
    });

    it('can be switched off', async () => {
      const uncached = await serveProxy({ upstreamUrl: upstream.marketingUrl, cache: false });
      try {
        const before = campaignsCalls();
        for (let index = 0; index < 2; index += 1) {
          const reply = await post(uncached.url, { operation: 'campaigns', variables: { limit: 1 } });
          assert.equal(reply.headers.get('x-cache'), null);
          assert.equal(reply.headers.get('cache-control'), 'no-store');
        }
        assert.equal(campaignsCalls() - before, 2);
      } finally {
        await uncached.close();
      }
    });
  });

  it('createNodeTransport sends each request to its own URL, path and query included, when one transport serves several', async () => {
    const seen: string[] = [];
    const upstreams = await Promise.all(
      ['a', 'b'].map((name) =>
        startFakeUpstream((req, res) => {
          void readBody(req).then((body) => {
            seen.push(`${name} ${req.method} ${req.url} ${req.headers['x-api-key']} ${body}`);
            res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":{"from":"${name}"}}`);
          });
        }),
      ),
    );
    const transport = createNodeTransport();
    try {
      const [a, b] = upstreams.map((server) => server.url) as [string, string];
      const send = (url: string, body: string) =>
        transport({ url, body, headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, timeoutMs: 5_000 });
      const replies = [await send(a, '1'), await send(`${b}?v=2`, '2'), await send(a, '3')];
      assert.deepEqual(
        replies.map((reply) => [reply.status, reply.text]),
        [
          [200, '{"data":{"from":"a"}}'],
          [200, '{"data":{"from":"b"}}'],
          [200, '{"data":{"from":"a"}}'],
        ],
      );
      assert.deepEqual(seen, ['a POST /graphql k 1', 'b POST /graphql?v=2 k 2', 'a POST /graphql k 3']);
    } finally {
      await Promise.all(upstreams.map((server) => server.close()));
    }
  });

  const transports: [string, UpstreamTransport | undefined][] = [
    ['fetch (default)', undefined],
    ['createNodeTransport', createNodeTransport()],
  ];
  for (const [transportName, transport] of transports)
    describe(`failures, upstream through ${transportName}`, () => {
      it('answers 504 upstream_timeout when the upstream is too slow', async () => {
        const held: ServerResponse[] = [];
        const slow = await startFakeUpstream((_req, res) => void held.push(res));
        const proxy = await serveProxy({ upstreamUrl: slow.url, timeoutMs: 200, cache: false, transport });
        try {
          for (const body of [
            { operation: 'campaigns' },
            { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
          ]) {
            const reply = await post(proxy.url, body);
            assert.equal(reply.status, 504);
            assert.equal(reply.body.error.code, 'upstream_timeout');
          }
          assert.equal(proxy.logs.at(-1)!.error, 'upstream_timeout');
        } finally {
          await proxy.close();
          await slow.close();
        }
      });

      it('answers 504 when the upstream stalls in the middle of its answer', async () => {
        const stalling = await startFakeUpstream((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"data":{"campaigns":{"items":[');
        });
        const proxy = await serveProxy({ upstreamUrl: stalling.url, timeoutMs: 200, cache: false, transport });
        try {
          const reply = await post(proxy.url, { operation: 'campaigns' });
          assert.equal(reply.status, 504);
          assert.equal(reply.body.error.code, 'upstream_timeout');
        } finally {
          await proxy.close();
          await stalling.close();
        }
      });

      it('keeps the 504 of a coupon request for its Idempotency-Key once the upstream is past the mint bound, saying why and how to try again', async () => {
        let calls = 0;
        const held: ServerResponse[] = [];
        const silent = await startFakeUpstream((_req, res) => {
          calls += 1;
          held.push(res);
        });
        // Answered "still waiting" at 150 ms; the call itself is given up at 3 × 150 ms.
        const proxy = await serveProxy({ upstreamUrl: silent.url, timeoutMs: 150, transport, ...COUNTED });
        try {
          const headers = { 'idempotency-key': 'timed-out-key' };
          const coupon = { operation: 'requestCoupon', variables: { campaignId: 'c' } };
          const first = await post(proxy.url, coupon, headers);
          assert.equal(first.status, 504);
          assert.equal(first.body.error.code, 'upstream_timeout');
          assert.match(first.body.error.message, /same Idempotency-Key/);
          let recorded = first;
          for (let attempt = 1; !/may have created/.test(recorded.body.error.message) && attempt < 10; attempt += 1)
            recorded = await post(proxy.url, coupon, headers);
          assert.equal(recorded.status, 504);
          assert.equal(recorded.body.error.code, 'upstream_timeout');
          assert.match(recorded.body.error.message, /new Idempotency-Key/);
          const replay = await post(proxy.url, coupon, headers);
          assert.equal(replay.headers.get('idempotent-replayed'), 'true');
          assert.deepEqual(replay.body, recorded.body);
          assert.equal(calls, 1, 'never sent twice');
          const fresh = await post(proxy.url, coupon, { 'idempotency-key': 'another-key' });
          assert.equal(fresh.status, 504, 'a new key is a new attempt');
          assert.equal(calls, 2);
          const unkeyed = await post(proxy.url, { operation: 'campaign', variables: { id: 'c' } });
          assert.equal(unkeyed.status, 504);
          assert.doesNotMatch(unkeyed.body.error.message, /Idempotency-Key/, 'only keyed requests talk about keys');
        } finally {
          await proxy.close();
          await silent.close();
        }
      });

      it('frees the Idempotency-Key when the upstream refused the request outright (a wrong key), so a retry can mint', async () => {
        let refuse = true;
        const fixable = await startFakeUpstream((_req, res) => {
          if (refuse)
            res
              .writeHead(401, { 'content-type': 'application/json' })
              .end('{"errors":[{"message":"Invalid API key","extensions":{"code":"UNAUTHORIZED"}}]}');
          else
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end('{"data":{"requestCoupon":{"coupon":{"code":"FIXED-1"}}}}');
        });
        const proxy = await serveProxy({ upstreamUrl: fixable.url, transport });
        try {
          const call = () =>
            post(
              proxy.url,
              { operation: 'requestCoupon', variables: { campaignId: 'c' } },
              { 'idempotency-key': 'refused-key' },
            );
          const refused = await call();
          assert.equal(refused.status, 502);
          assert.equal(refused.body.error.code, 'upstream_key_refused');
          refuse = false; // the merchant fixes the key
          const retried = await call();
          assert.equal(retried.status, 200, retried.text);
          assert.equal(retried.body.data.requestCoupon.coupon.code, 'FIXED-1');
          assert.equal(retried.headers.get('idempotent-replayed'), null);
        } finally {
          await proxy.close();
          await fixable.close();
        }
      });

      it('answers 502 upstream_unavailable when the upstream is down', async () => {
        const closed = createServer();
        await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
        const { port } = closed.address() as { port: number };
        await new Promise((resolve) => closed.close(resolve));
        const proxy = await serveProxy({ upstreamUrl: `http://127.0.0.1:${port}/graphql`, transport });
        try {
          const reply = await post(proxy.url, { operation: 'campaign', variables: { id: 'x' } });
          assert.equal(reply.status, 502);
          assert.equal(reply.body.error.code, 'upstream_unavailable');
          assert.ok(!reply.text.includes(String(port)), 'no internal address in the message');
        } finally {
          await proxy.close();
        }
      });

      it('retries a query once after a dropped connection, but never a coupon request', async () => {
        let attempts = 0;
        let dropNext = true;
        const flaky = await startFakeUpstream(async (req, res) => {
          attempts += 1;
          const body = await readBody(req);
          if (dropNext) {
            dropNext = false;
            req.socket.destroy();
            return;
          }
          const forwarded = await fetch(upstream.marketingUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': String(req.headers['x-api-key']) },
            body,
          });
          res.writeHead(forwarded.status, { 'content-type': 'application/json' }).end(await forwarded.text());
        });
        const proxy = await serveProxy({ upstreamUrl: flaky.url, cache: false, transport, ...COUNTED });
        try {
          const query = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
          assert.equal(query.status, 200, query.text);
          assert.equal(query.body.data.campaign.id, 'camp-harbor-beans');
          assert.equal(attempts, 2);

          attempts = 0;
          dropNext = true;
          const minted = upstream.stats().couponsMinted;
          const mutation = await post(proxy.url, {
            operation: 'requestCoupon',
            variables: { campaignId: 'camp-harbor-beans' },
          });
          assert.equal(mutation.status, 502);
          assert.equal(mutation.body.error.code, 'upstream_unavailable');
          assert.equal(attempts, 1);
          assert.equal(upstream.stats().couponsMinted, minted);
        } finally {
          await proxy.close();
          await flaky.close();
        }
      });

      it('keeps the API key out of answers (scrubbed from errors, data echoing it refused), and maps auth failures to 502', async () => {
        const echoing = await startFakeUpstream((req, res) => {
          const message = `Resolver failed for key ${String(req.headers['x-api-key'])} on this endpoint`;
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ data: null, errors: [{ message, errorType: 'Lambda:Unhandled' }] }));
        });
        const proxy = await serveProxy({ upstreamUrl: echoing.url, transport });
        try {
          const reply = await post(proxy.url, { operation: 'campaigns' });
          assert.equal(reply.status, 502);
          assert.equal(reply.body.error.code, 'upstream_error');
          assert.match(reply.body.error.message, /\[redacted\]/);
          assert.ok(!reply.text.includes(TEST_API_KEY));
          assert.ok(!JSON.stringify(proxy.logs).includes(TEST_API_KEY));
        } finally {
          await proxy.close();
          await echoing.close();
        }
        const leaky = await startFakeUpstream((req, res) => {
          const data = {
            campaigns: {
              items: [{ id: 'c1', content: { title: `debug: ${String(req.headers['x-api-key'])}` } }],
              nextToken: null,
            },
          };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
        });
        const leakyProxy = await serveProxy({ upstreamUrl: leaky.url, transport });
        try {
          const reply = await post(leakyProxy.url, { operation: 'campaigns' });
          assert.equal(reply.status, 502);
          assert.ok(!reply.text.includes(TEST_API_KEY), 'not even inside data');
        } finally {
          await leakyProxy.close();
          await leaky.close();
        }
        const wrongKey = await serveProxy({ upstreamUrl: upstream.marketingUrl, apiKey: 'not-the-key', transport });
        try {
          const reply = await post(wrongKey.url, { operation: 'campaigns' });
          assert.equal(reply.status, 502);
          assert.equal(reply.body.error.code, 'upstream_key_refused');
          assert.ok(!reply.text.includes('not-the-key'));
        } finally {
          await wrongKey.close();
        }
      });

      it('treats errors without a result, and null data, as errors', async () => {
        const answers = [
          {
            body: {
              data: { campaigns: null },
              errors: [{ message: 'resolver failed', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
            },
            code: 'upstream_error',
          },
          { body: { data: null }, code: 'upstream_error' },
          { body: { errors: [{ message: 'no code' }] }, code: 'upstream_error' },
        ];
        let next = 0;
        const partial = await startFakeUpstream(
          (_req, res) =>
            void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[next++]!.body)),
        );
        const proxy = await serveProxy({ upstreamUrl: partial.url, cache: false, transport, ...COUNTED });
        try {
          for (const { code } of answers) {
            const reply = await post(proxy.url, { operation: 'campaigns' });
            assert.equal(reply.status, 502);
            assert.equal(reply.body.error.code, code);
          }
        } finally {
          await proxy.close();
          await partial.close();
        }
      });

      it('refuses an answer larger than 8 MiB instead of buffering it, and does not ask again', async () => {
        let asked = 0;
        const huge = await startFakeUpstream((_req, res) => {
          asked += 1;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`{"data":{"campaign":{"id":"${'x'.repeat(9 * 1024 * 1024)}"}}}`);
        });
        const proxy = await serveProxy({ upstreamUrl: huge.url, cache: false, transport, ...COUNTED });
        try {
          const reply = await post(proxy.url, { operation: 'campaign', variables: { id: 'x' } });
          assert.equal(reply.status, 502);
          assert.equal(reply.body.error.code, 'upstream_error');
          assert.ok(reply.text.length < 1000);
          assert.equal(asked, 1, 'an answer that came is not a network failure: no retry');
        } finally {
          await proxy.close();
          await huge.close();
        }
      });

      it('never follows a redirect: the key is sent to the configured upstream only', async () => {
        const keysSeenElsewhere: (string | undefined)[] = [];
        const elsewhere = await startFakeUpstream((req, res) => {
          keysSeenElsewhere.push(req.headers['x-api-key'] as string | undefined);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"campaign":null}}');
        });
        const redirecting = await startFakeUpstream(
          (_req, res) => void res.writeHead(307, { location: elsewhere.url }).end(),
        );
        const proxy = await serveProxy({ upstreamUrl: redirecting.url, cache: false, transport });
        try {
          for (const body of [
            { operation: 'campaign', variables: { id: 'x' } },
            { operation: 'requestCoupon', variables: { campaignId: 'x' } },
          ]) {
            const reply = await post(proxy.url, body);
            assert.equal(reply.status, 502);
            assert.ok(!reply.text.includes(TEST_API_KEY) && !reply.text.includes(elsewhere.url));
          }
          assert.deepEqual(keysSeenElsewhere, []);
        } finally {
          await proxy.close();
          await redirecting.close();
          await elsewhere.close();
        }
      });

      it('answers 502 upstream_error for an upstream that does not speak GraphQL', async () => {
        const html = await startFakeUpstream(
          (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Oops</h1>'),
        );
        const proxy = await serveProxy({ upstreamUrl: html.url, transport });
        try {
          const reply = await post(proxy.url, { operation: 'campaigns' });
          assert.equal(reply.status, 502);
          assert.equal(reply.body.error.code, 'upstream_error');
        } finally {
          await proxy.close();
          await html.close();
        }
      });
    });
});
