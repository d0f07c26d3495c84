/**
 * Request bodies a hostile client sends, over real HTTP with the Marketing sandbox as upstream: bodies
 * that trickle in (slow loris), compressed bodies, and bodies longer than they declare.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createMarketingProxy, MAX_BODY_BYTES } from '../../../../src/proxy/index.ts';
import {
  post,
  serveProxy,
  startUpstream,
  TEST_API_KEY,
  type ProxyUnderTest,
  type Upstream,
} from '../../support/proxy-server.ts';
import { rawRequest } from '../../support/raw-http.ts';

const TIMEOUT_MS = 400;
const QUERY = JSON.stringify({ operation: 'campaign', variables: { id: 'camp-harbor-beans' } });

describe('Marketing proxy request bodies', () => {
  let upstream: Upstream;
  let proxy: ProxyUnderTest;
  const upstreamCalls = () => upstream.stats().graphqlRequests;

  before(async () => {
    upstream = await startUpstream();
    proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, timeoutMs: TIMEOUT_MS, cache: false });
  });
  after(async () => {
    await proxy.close();
    await upstream.dispose();
  });

  const head = (headers: string) =>
    `POST /api/marketing HTTP/1.1\r\nhost: ${new URL(proxy.origin).host}\r\ncontent-type: application/json\r\n${headers}`;

  it('answers a body that trickles in with 408 and closes the connection, declared length or chunked', async () => {
    const before = upstreamCalls();
    const declared = await rawRequest(proxy.origin, head(`content-length: ${QUERY.length}`), [...QUERY], {
      intervalMs: 100,
      waitMs: 4000,
    });
    assert.equal(declared.status, 408, declared.text);
    assert.match(declared.text, /"code":"request_timeout"/);
    assert.ok(declared.closed, 'the connection is closed');
    assert.ok(declared.elapsedMs < TIMEOUT_MS + 1500, `answered after ${declared.elapsedMs} ms`);

    const chunks = [...QUERY].map((character) => `1\r\n${character}\r\n`);
    const chunked = await rawRequest(proxy.origin, head('transfer-encoding: chunked'), chunks, {
      intervalMs: 100,
      waitMs: 4000,
    });
    assert.equal(chunked.status, 408, chunked.text);
    assert.ok(chunked.closed);
    assert.equal(upstreamCalls(), before, 'nothing reached the upstream');
    assert.equal(proxy.logs.at(-1)?.error, 'request_timeout');

    // The proxy is still fine, and a body that arrives in time in several pieces is served.
    const prompt = await rawRequest(
      proxy.origin,
      `${head(`content-length: ${QUERY.length}`)}\r\nconnection: close`,
      [QUERY.slice(0, 10), QUERY.slice(10)],
      {
        intervalMs: 50,
      },
    );
    assert.equal(prompt.status, 200, prompt.text);
  });

  it('refuses compressed bodies with 415 instead of inflating them', async () => {
    const before = upstreamCalls();
    // 10 MB of spaces inside a valid body: about 10 kB gzipped, under the size limit.
    const bomb = gzipSync(Buffer.from(QUERY.replace('}}', `}${' '.repeat(10_000_000)}}`)));
    assert.ok(bomb.byteLength < MAX_BODY_BYTES);
    for (const [encoding, body] of [
      ['gzip', bomb],
      ['gzip', gzipSync(QUERY)],
      ['deflate', gzipSync(QUERY)],
      ['br', Buffer.from(QUERY)],
    ] as const) {
      const response = await fetch(proxy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
      assert.equal(response.status, 415, encoding);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'unsupported_media_type');
    }
    assert.equal(upstreamCalls(), before);
    const identity = await post(proxy.url, QUERY, { 'content-encoding': 'identity' });
    assert.equal(identity.status, 200);
  });

  it('counts the bytes it reads, whatever Content-Length says (a Request built by a runtime or a framework)', async () => {
    const handler = createMarketingProxy({
      upstreamUrl: upstream.marketingUrl,
      apiKey: TEST_API_KEY,
      logger: () => {},
    });
    const before = upstreamCalls();
    const response = await handler(
      new Request('https://shop.example/api/marketing', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(QUERY.length) },
        body: QUERY.replace('}}', `}${' '.repeat(MAX_BODY_BYTES)}}`),
      }),
    );
    assert.equal(response.status, 413);
    assert.equal(upstreamCalls(), before);
  });
});
