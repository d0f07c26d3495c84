/**
 * The Node adapter: turns the proxy's Fetch-API handler into a `(req, res, next?)` listener for
 * `http.createServer`, Express, Connect and vite (`server.middlewares.use('/api/marketing', …)`).
 * The conversion between IncomingMessage/ServerResponse and Request/Response is @hono/node-server's
 * (body streaming, client disconnects, malformed requests), not ours.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as NodeServer from '@hono/node-server';
import { errorResponse, ProxyError } from '../shared/errors.ts';
import type { MarketingProxyHandler } from '../app/options.ts';
import { NODE_ADAPTER_PEERS, requirePeer } from '../shared/peer-dependency.ts';

// An optional peer dependency: hosts on Workers, Deno, Bun or Next.js never install it.
const { getRequestListener } = requirePeer<typeof NodeServer>(import.meta.url, '@hono/node-server', NODE_ADAPTER_PEERS);

export { createNodeTransport, type NodeTransportOptions } from '../upstream/node-transport.ts';
export type { MarketingProxyHandler } from '../app/options.ts';
export type { UpstreamTransport, UpstreamRequest, UpstreamReply } from '../upstream/transport.ts';
export type { RuntimeContext, RequestContext } from '../http/runtime-context.ts';

export interface NodeHandlerOptions {
  /** Host to assume when a request has no Host header (HTTP/1.0); such requests are refused otherwise. */
  hostname?: string;
  /**
   * Let @hono/node-server replace the global Request/Response with its lighter versions (faster
   * responses). Off by default: a library mounted in someone else's server leaves their globals
   * alone; the standalone CLI, which owns its process, turns it on.
   */
  overrideGlobalObjects?: boolean;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => Promise<void>;

/**
 * A body parser mounted before the proxy (e.g. `express.json()`) has already read the stream; hand
 * the adapter the bytes again so the proxy still sees (and checks) the body.
 */
function keepParsedBody(req: IncomingMessage & { body?: unknown; rawBody?: unknown }): void {
  if (!req.readableEnded || req.rawBody instanceof Buffer || req.body === undefined) return;
  const { body } = req;
  req.rawBody = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The proxy as a Node listener `(req, res, next?)`, for `http.createServer`, Express, Connect and
 * vite. Errors it cannot answer itself go to `next` when there is one.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { createMarketingProxy } from 'loyalty-widgets/proxy';
 * import { createNodeTransport, toNodeHandler } from 'loyalty-widgets/proxy/node';
 *
 * const marketing = createMarketingProxy({
 *   upstreamUrl: process.env.MARKETING_API_URL!,
 *   apiKey: process.env.MARKETING_API_KEY!,
 *   transport: createNodeTransport(),
 * });
 * http.createServer(toNodeHandler(marketing)).listen(8787);
 * // Express or Connect: app.use('/api/marketing', toNodeHandler(marketing));
 * ```
 */
export function toNodeHandler(handler: MarketingProxyHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const listener = getRequestListener(
    (request, env) => handler(request, { clientAddress: env.incoming.socket?.remoteAddress }),
    {
      hostname: options.hostname,
      overrideGlobalObjects: options.overrideGlobalObjects === true,
      errorHandler: (error) =>
        errorResponse(
          error instanceof Error && error.name === 'RequestError'
            ? new ProxyError(400, 'bad_request', 'Malformed HTTP request.')
            : new ProxyError(500, 'internal_error', 'The Marketing proxy failed to handle the request.'),
        ),
    },
  );
  return async (req, res, next) => {
    try {
      keepParsedBody(req);
      await listener(req, res);
    } catch (error) {
      if (next) next(error);
      else if (!res.headersSent) res.writeHead(500).end();
    }
  };
}
