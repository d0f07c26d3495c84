/**
 * The default access log (no `logger` option): one whole JSON line per request on stdout, the lines
 * of one turn of the event loop in one write rather than a synchronous console.log each.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMarketingProxy, type AccessLogEntry } from '../../src/proxy/index.ts';
import { startUpstream, TEST_API_KEY, type Upstream } from './support/proxy-server.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('default access log', () => {
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.dispose());

  it('writes the lines of 50 concurrent requests in a few writes, each line whole and in full', async () => {
    const handler = createMarketingProxy({ upstreamUrl: upstream.marketingUrl, apiKey: TEST_API_KEY });
    const request = () =>
      new Request('http://shop.example/api/marketing', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'campaigns', variables: { limit: 1 } }),
      });
    const writes: string[] = [];
    const original = process.stdout.write;
    process.stdout.write = function (this: typeof process.stdout, chunk: unknown, ...rest: unknown[]) {
      if (String(chunk).includes('"method":"POST"')) return writes.push(String(chunk)) > 0;
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
    try {
      assert.equal((await handler(request())).status, 200); // fills the cache
      const replies = await Promise.all(Array.from({ length: 50 }, () => handler(request())));
      assert.deepEqual(
        replies.map((reply) => reply.headers.get('x-cache')),
        Array<string>(50).fill('HIT'),
      );
      await nextTurn();
      await nextTurn();
    } finally {
      process.stdout.write = original;
    }
    const lines = writes
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AccessLogEntry);
    assert.equal(lines.length, 51);
    assert.ok(
      lines.every(
        (line) => line.operation === 'campaigns' && line.status === 200 && typeof line.durationMs === 'number',
      ),
    );
    assert.ok(writes.length <= 6, `${writes.length} writes for 51 lines`);
  });
});
