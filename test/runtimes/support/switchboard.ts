/**
 * The upstream every runtime host is given: a real HTTP server in the test process that forwards to
 * the real Marketing sandbox, except for the campaign ids that ask for a failure, and that can stop
 * taking connections altogether (a refused connection, as when the upstream is down).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `requestCoupon` of these campaign ids fails upstream in the named way. */
export const FAILING_CAMPAIGNS = {
  /** A 307 to another server (the trap), which must never see the key. */
  redirect: 'camp-fails-redirect',
  /** The connection closes after the request was read: the upstream may have minted. */
  drop: 'camp-fails-drop',
  /** A GraphQL error whose message carries the key, as a careless upstream might send. */
  echoKey: 'camp-fails-echo-key',
} as const;

export interface Switchboard {
  url: string;
  /** The x-api-key of every request that reached the redirect's target. */
  keysSeenByTrap: string[];
  /** Closes the listening socket and every open connection: new connections are refused. */
  refuseConnections(): Promise<void>;
  acceptConnections(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSwitchboard(sandboxUrl: string, apiKey: string): Promise<Switchboard> {
  const keysSeenByTrap: string[] = [];
  const trap = createServer((req, res) => {
    keysSeenByTrap.push(String(req.headers['x-api-key'] ?? ''));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"data":{"requestCoupon":{"coupon":{"code":"TRAPPED"}}}}');
  });
  const trapUrl = `http://127.0.0.1:${await listen(trap, 0)}/graphql`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    let campaignId: unknown;
    try {
      campaignId = (JSON.parse(body) as { variables?: { campaignId?: unknown } }).variables?.campaignId;
    } catch {
      campaignId = undefined;
    }
    if (campaignId === FAILING_CAMPAIGNS.redirect) return void res.writeHead(307, { location: trapUrl }).end();
    if (campaignId === FAILING_CAMPAIGNS.drop) return void req.socket.destroy();
    if (campaignId === FAILING_CAMPAIGNS.echoKey) {
      const answer = {
        data: null,
        errors: [{ message: `Resolver failed for key ${apiKey}`, errorType: 'Lambda:Unhandled' }],
      };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
    const upstream = await fetch(sandboxUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': String(req.headers['x-api-key'] ?? '') },
      body,
    });
    res
      .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      .end(await upstream.text());
  }

  let server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  const port = await listen(server, 0);
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    keysSeenByTrap,
    refuseConnections: () => stop(server),
    async acceptConnections() {
      server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
      await listen(server, port);
    },
    async close() {
      await Promise.all([stop(server), stop(trap)]);
    },
  };
}
