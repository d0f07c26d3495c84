/**
 * The Node adapter in the setups a host uses: a bare `http.createServer`, behind a JSON body parser
 * that already read the stream (as `express.json()` does), and with malformed HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { createMarketingProxy } from '../../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../../src/proxy/node.ts';
import { closeServer, listen, post, startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';

async function rawExchange(origin: string, text: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}

describe('toNodeHandler', () => {
  let upstream: Upstream;
  let handler: ReturnType<typeof toNodeHandler>;

  before(async () => {
    upstream = await startUpstream();
    handler = toNodeHandler(
      createMarketingProxy({ upstreamUrl: upstream.marketingUrl, apiKey: TEST_API_KEY, logger: () => {} }),
    );
  });
  after(() => upstream.dispose());

  it('works after a body parser has consumed the request stream', async () => {
    const server = createServer(async (req: IncomingMessage & { body?: unknown }, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      req.body = JSON.parse(text);
      await handler(req, res);
    });
    const origin = await listen(server);
    try {
      const reply = await post(origin, { operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.data.campaign.id, 'camp-harbor-beans');
      const refused = await post(origin, { operation: 'campaign', variables: { id: 'x', extra: 1 } });
      assert.equal(refused.status, 400, 'the proxy still checks what the parser read');
    } finally {
      await closeServer(server);
    }
  });

  it('answers malformed HTTP (no Host header) with a JSON 400', async () => {
    const server = createServer((req, res) => void handler(req, res));
    const origin = await listen(server);
    try {
      const body = '{"operation":"campaigns"}';
      const reply = await rawExchange(
        origin,
        `POST / HTTP/1.0\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      assert.match(reply, /^HTTP\/1\.[01] 400/);
      assert.match(reply, /"code":"bad_request"/);
    } finally {
      await closeServer(server);
    }
  });

  it('survives a client that disconnects mid-body', async () => {
    const server = createServer((req, res) => void handler(req, res));
    const origin = await listen(server);
    try {
      const { hostname, port } = new URL(origin);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST / HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"operation":`,
          );
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
      });
      const reply = await post(origin, { operation: 'campaigns', variables: { limit: 1 } });
      assert.equal(reply.status, 200);
    } finally {
      await closeServer(server);
    }
  });
});
