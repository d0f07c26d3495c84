/**
 * The Marketing proxy: a Fetch-API handler that forwards the widgets' named operations to the
 * Marketing GraphQL API with the `x-api-key` the browser must never see. Works as it is in Fetch
 * runtimes (Next.js route handlers, Cloudflare Workers, Deno, Bun) and through `toNodeHandler`
 * (./node.ts) in `http.createServer`, Express, Connect and vite. The Node adapter and the Redis store
 * are separate entry points (`loyalty-widgets/proxy/node`, `loyalty-widgets/proxy/redis`) so that a
 * Fetch runtime never loads Node-only modules, and so is the doctor (`loyalty-widgets/proxy/doctor`),
 * so that no bundler building this entry meets an optional peer package (graphql).
 */
import { accessLog, errorCode, ProxyLog } from './http/log.ts';
import { answerErrors } from './http/answer-errors.ts';
import { ResponseCache, type CacheSettings } from './http/cache.ts';
import { answerClaim, type ClaimServices } from './http/claim.ts';
import { clientAddressReader } from './http/client-address.ts';
import { compose, type Exchange } from './http/compose.ts';
import { corsStage } from './http/cors.ts';
import { IdempotencyKeys } from './http/idempotency.ts';
import { MarketingCalls } from './http/marketing-calls.ts';
import { answerQuery, queryReader } from './http/query.ts';
import { readCall } from './http/read-call.ts';
import { route } from './http/route.ts';
import { createOnFirstRequest, type RuntimeContext } from './hosts/runtime.ts';
import {
  comparableId,
  resolveOptions,
  type MarketingProxyHandler,
  type MarketingProxyOptions,
  type ProxySettings,
} from './options.ts';
import { SigninChecker } from './shopper/signin.ts';
import type { ProxyStore } from './stores/memory.ts';
import { BuiltInOperations } from './upstream/built-ins.ts';
import { PageCursors } from './upstream/cursor.ts';
import { UpstreamDocuments } from './upstream/documents.ts';
import { createSchemaCache, INTROSPECTION_QUERY } from './upstream/schema.ts';
import { callUpstream } from './upstream/transport.ts';

export { DEFAULT_TIMEOUT_MS, type MarketingProxyHandler, type MarketingProxyOptions } from './options.ts';
export type { AccessLogEntry } from './http/access-log.ts';
export {
  IMAGE_WIDTHS,
  BUILT_IN_OPERATIONS,
  type PersistedOperation,
  type VariableRule,
  type Variables,
} from './upstream/operations.ts';
export { DEFAULT_CACHE, type CacheSettings, type CacheState } from './http/cache.ts';
export { DEFAULT_RATE_LIMITS, type RateLimits, type RateLimitRule } from './http/rate-limit.ts';
export {
  createMemoryStore,
  type ClaimCounter,
  type ClaimResult,
  type ProxyStore,
  type CounterState,
  type MemoryStoreOptions,
} from './stores/memory.ts';
export { MAX_BODY_BYTES } from './http/request.ts';
export {
  fetchTransport,
  type UpstreamTransport,
  type UpstreamRequest,
  type UpstreamReply,
} from './upstream/transport.ts';
export { DEFAULT_SCHEMA_REFRESH_MS, type IntrospectionOption } from './upstream/schema.ts';
export { DEFAULT_PAGE_FILL, type PageFillLimits } from './upstream/pages.ts';
export { isSchemaMismatch } from './upstream/documents.ts';
export { UPSTREAM_KEY_REFUSED, UPSTREAM_SCHEMA_MISMATCH, UPSTREAM_THROTTLED } from './upstream/errors.ts';
export { cloudflareClientAddress, type RequestContext, type RuntimeContext } from './hosts/runtime.ts';
export {
  verifyShopper,
  createShopperVerifier,
  ShopperVerificationError,
  type VerifyShopperOptions,
} from './shopper/verify-shopper.ts';
export {
  ID_TOKEN_HEADER,
  type ShopperTokens,
  type VerifiedShopper,
  type ShopperVerificationCode,
} from './shopper/signin.ts';

export type { ProxyError } from './shared/errors.ts';
export { renderFirstPage, renderMount, type WidgetAttributes } from './render/index.ts';

/**
 * The Marketing proxy as a Fetch-API handler, `(request) => Promise<Response>`: it forwards the
 * widgets' named operations to `upstreamUrl` with the `x-api-key`. Pass a function returning the
 * options to create the proxy on its first request instead: for hosts whose settings exist only at
 * run time (a Next.js build loads route modules without the key). In Node, wrap it in `toNodeHandler`.
 *
 * @example
 * ```ts
 * import { createMarketingProxy } from 'loyalty-widgets/proxy';
 *
 * const marketing = createMarketingProxy(() => ({
 *   upstreamUrl: process.env.MARKETING_API_URL!,
 *   apiKey: process.env.MARKETING_API_KEY!,
 *   allowedOrigins: ['https://shop.example'],
 * }));
 * // Next.js, app/api/marketing/route.ts; Deno.serve(marketing) and Bun's fetch take it as it is too.
 * export const POST = marketing;
 * export const OPTIONS = marketing;
 * ```
 */
export function createMarketingProxy(
  settings: MarketingProxyOptions | (() => MarketingProxyOptions),
): MarketingProxyHandler {
  if (typeof settings === 'function') return createOnFirstRequest(() => createMarketingProxy(settings()));
  const resolved = resolveOptions(settings);
  const log = new ProxyLog(resolved.logger, resolved.apiKey);
  const calls = new MarketingCalls(
    resolved.upstream,
    upstreamDocuments(resolved, log),
    new BuiltInOperations(new PageCursors(resolved.cursorSecret), resolved.pageFill),
  );
  const { store, rateLimits } = resolved;
  const cache = resolved.cache && responseCache(resolved.store, resolved.cache, log);
  const readQuery = queryReader({ calls, cache, store, misses: rateLimits.queryMisses, log });
  const claim = answerClaim({
    calls,
    mintUpstream: resolved.mintUpstream,
    timeoutMs: resolved.timeoutMs,
    store,
    rateLimits,
    idempotency: idempotencyKeys(resolved, log),
    ...signinOf(resolved),
    readQuery,
    log,
  });
  const handle = compose([
    accessLog(log),
    answerErrors(log),
    corsStage(resolved.allowedOrigins, resolved.trustProxy),
    readCall(resolved.operations, resolved.timeoutMs, clientAddressReader(resolved.clientAddress, resolved.trustProxy)),
    route(answerQuery(readQuery, cache), claim),
  ]);
  return function marketingProxy(request: Request, runtimeContext?: unknown): Promise<Response> {
    const context: RuntimeContext = typeof runtimeContext === 'object' && runtimeContext !== null ? runtimeContext : {};
    const exchange: Exchange = { request, context, entry: log.entry(request.method), cors: {} };
    return handle(exchange);
  };
}

/** The query cache; its failures (a refresh, the store's state) are logged and leave the request served. */
function responseCache(store: ProxyStore, cacheSettings: CacheSettings, log: ProxyLog): ResponseCache {
  return new ResponseCache(
    store,
    cacheSettings,
    (error) => log.event('REVALIDATE', { status: 0, error: errorCode(error) }),
    log.storeReads,
  );
}

/** The built-in documents, fitted to the upstream's schema when introspection is on. */
function upstreamDocuments(settings: ProxySettings, log: ProxyLog): UpstreamDocuments {
  return new UpstreamDocuments(
    createSchemaCache(
      settings.introspectionIntervalMs,
      () => callUpstream(settings.upstream, INTROSPECTION_QUERY, {}, true),
      (outcome) =>
        log.event(
          'SCHEMA',
          outcome.kind === 'schema'
            ? { detail: 'The Marketing API schema was read: documents fit it again.' }
            : {
                error: 'introspection_unavailable',
                detail: `No upstream schema (${log.scrub(outcome.reason)}): documents carry literal values.`,
              },
        ),
    ),
  );
}

/** Idempotency keys, held as long as a keyed mint may run; an outcome the store could not take is logged. */
function idempotencyKeys(settings: ProxySettings, log: ProxyLog): IdempotencyKeys {
  return new IdempotencyKeys(settings.store, settings.mintUpstream.timeoutMs + settings.timeoutMs + 5_000, (notice) =>
    log.event('STORE', {
      status: 0,
      ...(notice.kind === 'kept'
        ? {
            error: errorCode(notice.error),
            detail: `An Idempotency-Key's outcome could not be recorded in the store; it is kept in this process and written when the store answers (${notice.waiting} waiting).`,
          }
        : { detail: `A kept Idempotency-Key outcome was written to the store (${notice.waiting} still waiting).` }),
    }),
  );
}

/** The sign-in check, and which calls need it: every mutation, or those for a listed campaign. */
function signinOf(settings: ProxySettings): Pick<ClaimServices, 'signin' | 'needsSignin'> {
  const { signin } = settings;
  if (!signin) return { signin: undefined, needsSignin: () => false };
  const { campaigns, connectUrl, clientId } = signin;
  return {
    signin: new SigninChecker({
      connectUrl,
      clientId,
      timeoutMs: settings.timeoutMs,
      fetch: settings.fetch,
      store: settings.store,
    }),
    needsSignin: (call) => campaigns === 'all' || campaigns.has(comparableId(String(call.variables.campaignId ?? ''))),
  };
}
