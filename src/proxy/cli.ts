#!/usr/bin/env node
/**
 * `loyalty-proxy`: the Marketing proxy as a standalone server at /api/marketing, configured from the
 * environment (MARKETING_API_URL, MARKETING_API_KEY, ALLOWED_ORIGINS, PORT, HOST, REDIS_URL,
 * CONNECT_URL, CONNECT_CLIENT_ID, REQUIRE_SIGNIN, REQUIRE_SIGNIN_CAMPAIGNS, TRUST_PROXY). Refuses to start, with exit
 * code 1, when a setting is missing or malformed.
 */
import { createServer } from 'node:http';
import { ConfigError, readConfig, type ProxyServerConfig } from './config.ts';
import { errorBody } from './errors.ts';
import { createMarketingProxy } from './index.ts';
import { createNodeTransport, toNodeHandler } from './node.ts';
import { createRedisStore } from './redis-store.ts';

export const MOUNT_PATH = '/api/marketing';

function start(config: ProxyServerConfig): void {
  for (const warning of config.warnings) process.stderr.write(`loyalty-proxy: warning: ${warning}\n`);
  const store = config.redisUrl ? createRedisStore({ url: config.redisUrl }) : undefined;
  const proxy = toNodeHandler(
    createMarketingProxy({
      upstreamUrl: config.upstreamUrl,
      apiKey: config.apiKey,
      allowedOrigins: config.allowedOrigins,
      connectUrl: config.connectUrl,
      clientId: config.clientId,
      requireSignin: config.requireSignin,
      trustProxy: config.trustProxy,
      store,
      transport: createNodeTransport(),
    }),
    // The CLI owns its process, so @hono/node-server may use its lighter global Request/Response.
    { overrideGlobalObjects: true },
  );
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === MOUNT_PATH) {
      void proxy(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(errorBody('not_found', `The Marketing proxy is served at ${MOUNT_PATH}.`));
  });
  server.on('error', (error) => {
    process.stderr.write(`loyalty-proxy: cannot listen: ${error.message}\n`);
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host ?? 'localhost';
    const upstream = new URL(config.upstreamUrl);
    process.stderr.write(
      `loyalty-proxy: listening on http://${host.includes(':') ? `[${host}]` : host}:${port}${MOUNT_PATH} → ${upstream.origin}${upstream.pathname}` +
        `${store ? ' (shared Redis store)' : ''}\n`,
    );
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
    Promise.resolve(store?.close()).finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

try {
  start(readConfig(process.env));
} catch (error) {
  process.stderr.write(`loyalty-proxy: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}
