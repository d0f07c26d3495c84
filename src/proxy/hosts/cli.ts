#!/usr/bin/env node
/**
 * `loyalty-proxy`: the Marketing proxy as a standalone server at /api/marketing, configured from the
 * environment (MARKETING_API_URL, MARKETING_API_KEY, ALLOWED_ORIGINS, PORT, HOST, REDIS_URL, REDIS_CACHE_URL,
 * CONNECT_URL, CONNECT_CLIENT_ID, REQUIRE_SIGNIN, REQUIRE_SIGNIN_CAMPAIGNS, TRUST_PROXY). Refuses to start, with exit
 * code 1, when a setting is missing or malformed, or when the Marketing API refuses the key.
 * `loyalty-proxy doctor` checks the Marketing API instead (see doctor.ts), and the Redis store with REDIS_URL
 * (store-doctor.ts), and exits 1 when they are not ready.
 */
import { createServer, type Server } from 'node:http';
import { ConfigError, readConfig, type ProxyServerConfig } from './config.ts';
import { errorBody } from '../shared/errors.ts';
import { diagnoseUpstream, formatDiagnosis, probeUpstream } from './doctor.ts';
import { createMarketingProxy } from '../app/marketing-proxy.ts';
import { DEFAULT_TIMEOUT_MS } from '../app/options.ts';
import { createNodeTransport } from '../upstream/node-transport.ts';
import { MissingPeerDependencyError } from '../shared/peer-dependency.ts';
// Types only: the modules themselves are loaded when the server starts (see start).
import type { NodeHandler } from './node.ts';
import type { RedisStore } from '../stores/redis.ts';

export const MOUNT_PATH = '/api/marketing';

const USAGE =
  'Usage: loyalty-proxy          serve the Marketing proxy at /api/marketing\n       loyalty-proxy doctor   check the Marketing API before going live\n';

/** A refused key is a start-up failure; an upstream that is down now may be up in a minute. */
async function checkUpstream(config: ProxyServerConfig): Promise<void> {
  const probe = await probeUpstream({
    url: config.upstreamUrl,
    apiKey: config.apiKey,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    transport: createNodeTransport(),
  });
  if (probe.kind === 'refused') {
    process.stderr.write(
      `loyalty-proxy: cannot start: the Marketing API refused MARKETING_API_KEY (HTTP ${probe.status}, ${probe.message}). ` +
        'Check the key; `loyalty-proxy doctor` checks everything.\n',
    );
    process.exit(1);
  }
  if (probe.kind === 'unreachable') {
    process.stderr.write(
      `loyalty-proxy: warning: the Marketing API cannot be reached (${probe.message}); requests answer 502 until it can.\n`,
    );
  } else if (probe.kind === 'throttled') {
    process.stderr.write('loyalty-proxy: warning: the Marketing API is throttling this key (HTTP 429) at start-up.\n');
  } else if (probe.kind === 'not_graphql') {
    process.stderr.write(
      `loyalty-proxy: warning: MARKETING_API_URL answers HTTP ${probe.status} without GraphQL JSON: is it the GraphQL endpoint?\n`,
    );
  }
}

async function doctor(config: ProxyServerConfig): Promise<void> {
  for (const warning of config.warnings) process.stderr.write(`loyalty-proxy: warning: ${warning}\n`);
  const diagnosis = await diagnoseUpstream({
    upstreamUrl: config.upstreamUrl,
    apiKey: config.apiKey,
    transport: createNodeTransport(),
  });
  if (config.redisUrl) {
    // Loaded only here: the doctor without REDIS_URL needs no redis package.
    const { diagnoseRedisStore } = await import('./store-doctor.ts');
    const findings = await diagnoseRedisStore(config.redisUrl, config.redisCacheUrl);
    diagnosis.findings.push(...findings);
    if (findings.some((finding) => finding.blocking)) diagnosis.ok = false;
  }
  process.stdout.write(formatDiagnosis(diagnosis));
  process.exitCode = diagnosis.ok ? 0 : 1;
}

/** The proxy's server: the proxy at MOUNT_PATH, a JSON 404 anywhere else. */
function createProxyServer(proxy: NodeHandler): Server {
  // A client gets as long to send its headers as the proxy gives it for its body (Node's own is 60 s),
  // checked every second, so slow-header connections cannot pile up.
  return createServer({ headersTimeout: DEFAULT_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === MOUNT_PATH) {
      void proxy(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(errorBody('not_found', `The Marketing proxy is served at ${MOUNT_PATH}.`));
  });
}

/** Listens, says where once it does, and exits 1 when it cannot. */
function listen(server: Server, config: ProxyServerConfig, sharedStore: boolean): void {
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
        `${sharedStore ? ' (shared Redis store)' : ''}\n`,
    );
  });
}

/** On SIGINT or SIGTERM: stops taking connections, closes the store, exits 0. */
function stopOnSignal(server: Server, store: RedisStore | undefined): void {
  const stop = () => {
    server.close();
    server.closeAllConnections();
    Promise.resolve(store?.close()).finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function start(config: ProxyServerConfig): Promise<void> {
  for (const warning of config.warnings) process.stderr.write(`loyalty-proxy: warning: ${warning}\n`);
  // Loaded here, not imported above: they need optional peer packages (the doctor needs neither,
  // Redis only with REDIS_URL), whose absence stops the start-up with the command that installs them.
  const { toNodeHandler } = await import('./node.ts');
  const store = config.redisUrl
    ? (await import('../stores/redis.ts')).createRedisStore({ url: config.redisUrl, cacheUrl: config.redisCacheUrl })
    : undefined;
  await checkUpstream(config);
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
  const server = createProxyServer(proxy);
  listen(server, config, store !== undefined);
  stopOnSignal(server, store);
}

async function main(command: string | undefined): Promise<void> {
  if (command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command !== undefined && command !== 'doctor') {
    process.stderr.write(`loyalty-proxy: unknown command "${command}".\n${USAGE}`);
    process.exit(1);
  }
  try {
    const config = readConfig(process.env);
    await (command === 'doctor' ? doctor(config) : start(config));
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof MissingPeerDependencyError;
    process.stderr.write(`loyalty-proxy: ${known ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

void main(process.argv[2]);
