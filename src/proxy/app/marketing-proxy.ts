/**
 * `createMarketingProxy`: the proxy's options read once, and its stages composed, bottom to top of
 * the house: the stores, the upstream and the sign-in checks are made here and handed to the stages.
 * A read goes through the access log, errors, CORS and the call's reading to the query path; a claim
 * takes the claim path (http/claim.ts).
 */
import { accessLog, errorCode, ProxyLog } from '../http/log.ts';
import { answerErrors } from '../http/answer-errors.ts';
import { ResponseCache, type CacheSettings } from '../http/cache.ts';
import { claimPath } from '../http/claim.ts';
import { claimRateLimits } from '../http/claim-limits.ts';
import { clientAddressReader } from '../http/client-address.ts';
import { compose, type Exchange } from '../http/compose.ts';
import { corsStage } from '../http/cors.ts';
import { IdempotencyKeys } from '../http/idempotency.ts';
import { idempotency } from '../http/idempotency-stage.ts';
import { MarketingCalls } from '../http/marketing-calls.ts';
import { mint } from '../http/mint.ts';
import { answerQuery, queryReader } from '../http/query.ts';
import { readCall } from '../http/read-call.ts';
import { route } from '../http/route.ts';
import type { RuntimeContext } from '../http/runtime-context.ts';
import { signin, type SigninStageSettings } from '../http/signin.ts';
import { SigninChecker } from '../shopper/signin.ts';
import type { ProxyStore } from '../stores/contract.ts';
import { BuiltInOperations } from '../upstream/built-ins.ts';
import { PageCursors } from '../upstream/cursor.ts';
import { UpstreamDocuments } from '../upstream/documents.ts';
import { createSchemaCache, INTROSPECTION_QUERY } from '../upstream/schema.ts';
import { callUpstream } from '../upstream/transport.ts';
import {
  comparableId,
  resolveOptions,
  type MarketingProxyHandler,
  type MarketingProxyOptions,
  type ProxySettings,
} from './options.ts';

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
  const claim = claimPath([
    signin({ ...signinOf(resolved), store, perAddress: rateLimits.perAddress }),
    claimRateLimits(store, rateLimits),
    idempotency(idempotencyKeys(resolved, log), resolved.timeoutMs),
    mint({ calls, mintUpstream: resolved.mintUpstream, readQuery, log }),
  ]);
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
function signinOf(settings: ProxySettings): Pick<SigninStageSettings, 'checker' | 'needsSignin'> {
  const { signin } = settings;
  if (!signin) return { checker: undefined, needsSignin: () => false };
  const { campaigns, connectUrl, clientId } = signin;
  return {
    checker: new SigninChecker({
      connectUrl,
      clientId,
      timeoutMs: settings.timeoutMs,
      fetch: settings.fetch,
      store: settings.store,
    }),
    needsSignin: (call) => campaigns === 'all' || campaigns.has(comparableId(String(call.variables.campaignId ?? ''))),
  };
}

/**
 * A handler that builds the real one on its first request. A settings problem (a missing key) then
 * fails that request and the next ones, loudly, instead of the host's build or start-up.
 */
function createOnFirstRequest(create: () => MarketingProxyHandler): MarketingProxyHandler {
  let handler: MarketingProxyHandler | undefined;
  return async (request, context) => {
    handler ??= create();
    return handler(request, context);
  };
}
