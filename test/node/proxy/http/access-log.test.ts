/**
 * The default access log (no `logger` option): one whole JSON line per request on stdout, the lines
 * of one turn of the event loop in one write rather than a synchronous console.log each; each line
 * what JSON.stringify would write, and each time what toISOString would.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMarketingProxy, type AccessLogEntry } from '../../../../src/proxy/index.ts';
import { isoTime, jsonLine } from '../../../../src/proxy/http/access-log.ts';
import { startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';

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

  it('writes every field of an entry as JSON reads it back, escaping what needs it', () => {
    const entry: Required<AccessLogEntry> = {
      time: isoTime(),
      method: 'POST',
      operation: 'campaigns',
      status: 502,
      durationMs: 12.34,
      cache: 'STALE',
      replayed: false,
      error: 'upstream_unreachable',
      detail: 'The store answers again.',
      dropped: 3,
      upstreamCalls: 2,
      partial: true,
      failures: 60,
    };
    assert.deepEqual(JSON.parse(jsonLine(entry)), entry);
    assert.equal(jsonLine(entry), JSON.stringify(entry));
    // Each character JSON escapes, alone in a text (a lone half of a surrogate pair included), and some it does not.
    for (const character of ['"', '\\', '\n', '\t', '\u0000', '\u001f', '\ud800', '\udfff', '😀', 'é', '\u2028']) {
      for (const field of ['method', 'operation', 'error', 'detail'] as const) {
        const odd = { ...entry, [field]: `a${character}b` };
        assert.equal(jsonLine(odd), JSON.stringify(odd), `${field} with ${JSON.stringify(character)}`);
      }
    }
    const event = { time: isoTime(), method: 'STORE', status: 0, durationMs: Number.NaN };
    assert.deepEqual(JSON.parse(jsonLine(event)), { ...event, durationMs: null });
  });

  it('writes each time as toISOString does, across seconds, years and before 1970', () => {
    const times = [0, 5, 59, 999, 1000, 1_798_761_599_999, 1_798_761_600_000, 1_798_761_600_042, -1, -999, -1001];
    for (const [index, time] of [...times, ...times.map((time) => time + 86_400_123)].entries())
      assert.equal(isoTime(time), new Date(time).toISOString(), `time ${index}: ${time}`);
  });
});
