/**
 * The Marketing proxy: a Fetch-API handler that forwards the widgets' named operations to the
 * Marketing GraphQL API with the `x-api-key` the browser must never see. Works as it is in Fetch
 * runtimes (Next.js route handlers, Cloudflare Workers, Deno, Bun) and through `toNodeHandler`
 * (./node.ts) in `http.createServer`, Express, Connect and vite. The Node adapter and the Redis store
 * are separate entry points (`loyalty-widgets/proxy/node`, `loyalty-widgets/proxy/redis`) so that a
 * Fetch runtime never loads Node-only modules, and so is the doctor (`loyalty-widgets/proxy/doctor`),
 * so that no bundler building this entry meets an optional peer package (graphql).
 */
import { jsonLineWriter } from './http/access-log.ts';
import { DEFAULT_CACHE, ResponseCache, type CacheSettings, type CacheState } from './http/cache.ts';
import { HTTP_PROTOCOLS, parseUrl } from '../shared/url.ts';
import { corsHeadersFor, normalizeOrigins, preflightResponse } from './http/cors.ts';
import { sha256Hex } from './shared/digest.ts';
import { errorResponse, jsonResponse, NO_STORE, ProxyError, scrub } from './shared/errors.ts';
import { IdempotencyKeys, idempotencyKeyOf, type Outcome } from './http/idempotency.ts';
import { BuiltInOperations, type BuiltInAnswer } from './upstream/built-ins.ts';
import { PageCursors } from './upstream/cursor.ts';
import { checkCouponOffer } from './upstream/coupon-offer.ts';
import { UpstreamDocuments } from './upstream/documents.ts';
import {
  BUILT_IN_OPERATIONS,
  canonicalVariables,
  type PersistedOperation,
  type Variables,
} from './upstream/operations.ts';
import { resolvePageFill, type PageFillLimits } from './upstream/pages.ts';
import {
  checkRateLimitRule,
  consumeRateLimit,
  DEFAULT_RATE_LIMITS,
  rateLimitAddress,
  type RateLimits,
} from './http/rate-limit.ts';
import { readOperationCall, type OperationCall } from './http/request.ts';
import { SigninChecker } from './shopper/signin.ts';
import { createMemoryStore, type ProxyStore } from './stores/memory.ts';
import {
  callUpstream,
  fetchField,
  fetchTransport,
  UpstreamError,
  withoutKey,
  type UpstreamSettings,
  type UpstreamTransport,
} from './upstream/transport.ts';
import { UPSTREAM_KEY_REFUSED } from './upstream/errors.ts';
import { createSchemaCache, INTROSPECTION_QUERY, type IntrospectionOption } from './upstream/schema.ts';
import { connectionAddress, createOnFirstRequest, waitUntilOf, type RuntimeContext } from './hosts/runtime.ts';

export {
  IMAGE_WIDTHS,
  BUILT_IN_OPERATIONS,
  type PersistedOperation,
  type VariableRule,
  type Variables,
} from './upstream/operations.ts';
export { DEFAULT_CACHE, type CacheSettings, type CacheState } from './http/cache.ts';
export { DEFAULT_RATE_LIMITS, type RateLimits, type RateLimitRule } from './http/rate-limit.ts';
export { createMemoryStore, type ProxyStore, type CounterState, type MemoryStoreOptions } from './stores/memory.ts';
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

/** Default upstream timeout: a coupon widget should answer or fail within seconds. */
export type { ProxyError } from './shared/errors.ts';

export const DEFAULT_TIMEOUT_MS = 10_000;

/** One line of the access log: no secrets, no tokens, no variables. */
export interface AccessLogEntry {
  time: string;
  method: string;
  operation?: string;
  status: number;
  durationMs: number;
  cache?: CacheState;
  replayed?: boolean;
  error?: string;
  /** For unexpected (500) failures, unreachable upstreams, configuration problems and `SCHEMA` entries: what went wrong, with secrets removed. */
  detail?: string;
  /** Built-in operations: records left out of the answer because the widgets cannot use them. */
  dropped?: number;
  /** Built-in operations: upstream calls made for this answer (more than one when filling a page). */
  upstreamCalls?: number;
  /** Built-in operations: upstream errors came with usable data, which was served. */
  partial?: boolean;
}

export interface MarketingProxyOptions {
  /** The Marketing GraphQL endpoint (the spec's test or production address, or the sandbox). */
  upstreamUrl: string;
  /** Sent upstream as `x-api-key`; never in any response, header, log or error. */
  apiKey: string;
  /** Exact origins allowed cross-origin (e.g. `https://shop.example`); same-origin always works. */
  allowedOrigins?: string[];
  /** Connect's authority, for `requireSignin`'s checks. */
  connectUrl?: string;
  /** The merchant's app id at Connect (the button's `client-id`), for `requireSignin`: tokens of other apps are refused. */
  clientId?: string;
  /**
   * Coupon requests that need the signed-in shopper's tokens (`Authorization: Bearer <access token>`
   * and `X-Loyalty-Id-Token: <ID token>`), checked like `verifyShopper` does: `true` for every coupon,
   * or the ids of the campaigns whose coupons are for signed-in shoppers only (a members' offer), the
   * others staying open to anyone.
   */
  requireSignin?: boolean | readonly string[];
  /** Memory by default; `createRedisStore({ url })` to share state between instances. */
  store?: ProxyStore;
  /** Behind a reverse proxy you trust: honour `X-Forwarded-Host`/`-Proto` and the last `X-Forwarded-For` hop. */
  trustProxy?: boolean;
  /** Upstream (and Connect) timeout in ms, also the time a client has to send its body; default 10 000. */
  timeoutMs?: number;
  /** Query response cache; `false` disables it. Default 30 s fresh + 120 s stale-while-revalidate. */
  cache?: Partial<CacheSettings> | false;
  /** Coupon rate limits; each rule may be `false`. Defaults in DEFAULT_RATE_LIMITS. */
  rateLimits?: Partial<RateLimits>;
  /**
   * Signs the proxy's page cursors (`nextToken`); default the API key. Recommended: a random secret
   * of its own (32 bytes or more), so that rotating the key leaves cursors valid. Every instance
   * behind one load balancer needs the same value to accept the others' cursors.
   */
  cursorSecret?: string;
  /** Bounds on filling a page from sparse upstream pages; defaults in DEFAULT_PAGE_FILL. */
  pageFill?: Partial<PageFillLimits>;
  /**
   * Read the upstream's schema (GraphQL introspection, on first use) and fit the built-in documents to
   * it; read again after the upstream refuses a document, at most once per `minIntervalMs` (default
   * 30 s). `false`: never ask; documents then carry values as literals and name no upstream types.
   */
  introspection?: IntrospectionOption;
  /** Extra (or replacement) named operations with their documents, for hosts that need more fields. */
  operations?: Record<string, PersistedOperation>;
  /** Receives one access-log entry per request; default writes it as one JSON line to stdout. */
  logger?: (entry: AccessLogEntry) => void;
  /** The fetch used for Connect, and upstream unless `transport` is given; default the global fetch. */
  fetch?: typeof fetch;
  /** How upstream requests are sent; default through `fetch`. In Node, `createNodeTransport()` is cheaper. */
  transport?: UpstreamTransport;
  /** The client's address, for runtimes where the adapter cannot tell (e.g. a CDN header). */
  clientAddress?: (request: Request) => string | undefined;
}

/**
 * The second argument is whatever the runtime passes there (a {@link RuntimeContext}: Bun's server, Deno's
 * connection info, a Worker's `ctx`, Next.js's `{ params }`), read by shape at run time. It is typed
 * `unknown` so that each host's own type checks take the handler as it is: Next.js's route check
 * (`next build --webpack`) accepts no other type there.
 */
export type MarketingProxyHandler = (request: Request, context?: unknown) => Promise<Response>;

const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * How much longer than `timeoutMs` a keyed mutation's upstream call may run: the caller is answered at
 * `timeoutMs`, and the call goes on (up to three times `timeoutMs` in all, 30 s by default: as long as
 * Cloudflare's `waitUntil` keeps a Worker's work alive) so that its answer is recorded for the key.
 */
const MINT_TIMEOUT_FACTOR = 3;

/** What a keyed mutation whose upstream has not answered yet tells the caller: ask again, same key. */
function stillMinting(): ProxyError {
  return new ProxyError(
    504,
    'upstream_timeout',
    'The Marketing API has not answered yet; the proxy keeps waiting for its answer and records it for this Idempotency-Key. ' +
      'Send the request again with the same Idempotency-Key to receive it.',
    { 'retry-after': '1' },
  );
}

/** Appended to the recorded answer of a keyed mutation that may or may not have run upstream. */
const UNCERTAIN_MINT =
  'It may have created a coupon, so this Idempotency-Key keeps this answer for 24 hours instead of trying again. ' +
  'To try again anyway, send the request with a new Idempotency-Key (which may give the shopper a second coupon).';

/** The answer for a keyed mutation whose instance stopped (crashed) before recording what the upstream said. */
function holderGone(): ProxyError {
  return new UpstreamError(
    504,
    'upstream_timeout',
    `The request with this Idempotency-Key stopped before its answer was recorded. ${UNCERTAIN_MINT}`,
    true,
  );
}

/** `requireSignin` as the proxy uses it: 'all', the set of campaign ids, or undefined for none. */
function signinCampaignsOf(value: unknown): 'all' | ReadonlySet<string> | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 'all';
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && id.trim() !== '' && id === id.trim())) {
    throw new TypeError('createMarketingProxy: "requireSignin" must be true, false or a list of campaign ids.');
  }
  return value.length ? new Set((value as string[]).map(comparableId)) : undefined;
}

/**
 * A campaign id as `requireSignin` compares it. How the Marketing API matches ids is not specified:
 * were it to ignore case, spacing or Unicode width, a listed campaign must not slip through spelled
 * another way, so the comparison ignores them too (at worst a near-miss spelling also needs sign-in).
 */
function comparableId(id: string): string {
  return id.normalize('NFKC').trim().toLowerCase();
}

function httpUrl(value: unknown, name: string): string {
  const url = typeof value === 'string' ? parseUrl(value, HTTP_PROTOCOLS) : undefined;
  if (!url) {
    throw new TypeError(`createMarketingProxy: "${name}" must be an http(s) URL.`);
  }
  if (url.username || url.password) {
    // fetch refuses such URLs on every request, node:http would send them as Basic auth: refuse them once, here.
    throw new TypeError(`createMarketingProxy: "${name}" must not contain a user or password.`);
  }
  return url.href;
}

function resolveOperations(extra: Record<string, PersistedOperation> = {}): Record<string, PersistedOperation> {
  const operations: Record<string, PersistedOperation> = Object.assign(Object.create(null), BUILT_IN_OPERATIONS);
  for (const [name, operation] of Object.entries(extra)) {
    if (!OPERATION_NAME.test(name))
      throw new TypeError(`createMarketingProxy: operation name "${name}" must be a GraphQL name.`);
    if (
      (operation.kind !== 'query' && operation.kind !== 'mutation') ||
      !operation.document ||
      typeof operation.variables !== 'object'
    ) {
      throw new TypeError(
        `createMarketingProxy: operation "${name}" needs kind 'query' | 'mutation', a document and its variables.`,
      );
    }
    operations[name] = operation;
  }
  return operations;
}

function resolveCache(cache: MarketingProxyOptions['cache']): CacheSettings | undefined {
  if (cache === false) return undefined;
  const settings = { ...DEFAULT_CACHE, ...cache };
  if (!(settings.ttlSeconds > 0) || !(settings.staleWhileRevalidateSeconds >= 0)) {
    throw new TypeError(
      'createMarketingProxy: cache.ttlSeconds must be > 0 and staleWhileRevalidateSeconds ≥ 0 (or cache: false).',
    );
  }
  return settings;
}

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
  const options = settings;
  if (!options || typeof options !== 'object') throw new TypeError('createMarketingProxy: options are required.');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('createMarketingProxy: "apiKey" (the Marketing API key) is required.');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError('createMarketingProxy: "timeoutMs" must be a positive number.');
  const apiKey = options.apiKey;
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const transport = options.transport ?? fetchTransport(fetchImpl);
  const upstream: UpstreamSettings = { url: httpUrl(options.upstreamUrl, 'upstreamUrl'), apiKey, timeoutMs, transport };
  const allowedOrigins = normalizeOrigins(options.allowedOrigins ?? []);
  const trustProxy = options.trustProxy === true;
  const store = options.store ?? createMemoryStore();
  const operations = resolveOperations(options.operations);
  const cacheSettings = resolveCache(options.cache);
  const cache =
    cacheSettings &&
    new ResponseCache(
      store,
      cacheSettings,
      (error) => log({ ...baseEntry('REVALIDATE'), status: 0, error: errorCode(error) }),
      (error) => log({ ...baseEntry('CACHE'), status: 0, error: errorCode(error) }),
    );
  const rateLimits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  checkRateLimitRule('perAddress', rateLimits.perAddress);
  checkRateLimitRule('perShopper', rateLimits.perShopper);
  checkRateLimitRule('queryMisses', rateLimits.queryMisses);
  const signinCampaigns = signinCampaignsOf(options.requireSignin);
  if (signinCampaigns && !options.connectUrl) {
    throw new TypeError(
      'createMarketingProxy: "requireSignin" needs "connectUrl" (the Connect authority) to check tokens.',
    );
  }
  if (signinCampaigns && (typeof options.clientId !== 'string' || options.clientId.trim() === '')) {
    throw new TypeError(
      'createMarketingProxy: "requireSignin" needs "clientId" (your app id at Connect): without it a token issued to any app would do.',
    );
  }
  const signin = signinCampaigns
    ? new SigninChecker({
        connectUrl: httpUrl(options.connectUrl, 'connectUrl'),
        clientId: options.clientId!,
        timeoutMs,
        fetch: fetchImpl,
        store,
      })
    : undefined;
  /** Whether this call must come from a signed-in shopper: every mutation, or those for a listed campaign. */
  const needsSignin = (call: OperationCall): boolean =>
    signinCampaigns === 'all' ||
    (signinCampaigns !== undefined && signinCampaigns.has(comparableId(String(call.variables.campaignId ?? ''))));
  /** A keyed mutation's upstream call, which may outlive its caller's wait (see MINT_TIMEOUT_FACTOR). */
  const mintUpstream: UpstreamSettings = { ...upstream, timeoutMs: timeoutMs * MINT_TIMEOUT_FACTOR };
  const idempotency = new IdempotencyKeys(store, mintUpstream.timeoutMs + timeoutMs + 5_000, (notice) =>
    log({
      ...baseEntry('STORE'),
      status: 0,
      ...(notice.kind === 'kept'
        ? {
            error: errorCode(notice.error),
            detail: `An Idempotency-Key's outcome could not be recorded in the store; it is kept in this process and written when the store answers (${notice.waiting} waiting).`,
          }
        : { detail: `A kept Idempotency-Key outcome was written to the store (${notice.waiting} still waiting).` }),
    }),
  );
  const documents = new UpstreamDocuments(
    createSchemaCache(
      options.introspection,
      () => callUpstream(upstream, INTROSPECTION_QUERY, {}, true),
      (outcome) =>
        log({
          ...baseEntry('SCHEMA'),
          ...(outcome.kind === 'schema'
            ? { detail: 'The Marketing API schema was read: documents fit it again.' }
            : {
                error: 'introspection_unavailable',
                detail: `No upstream schema (${scrub(outcome.reason, [apiKey])}): documents carry literal values.`,
              }),
        }),
    ),
  );
  const builtIns = new BuiltInOperations(
    new PageCursors(options.cursorSecret || apiKey),
    resolvePageFill(options.pageFill),
  );
  /** A built-in operation, and not a host's operation of the same name: its answers are normalized. */
  const isBuiltIn = (call: OperationCall) => BUILT_IN_OPERATIONS[call.name] === call.operation;
  /** The one way a built-in operation's request goes upstream, with these variables (its document: documents.ts). */
  const sendBuiltIn =
    (call: OperationCall, retry: boolean, settings = upstream) =>
    (variables: Variables) =>
      documents.attempt({ ...call, variables }, (request) =>
        fetchField(settings, request.query, request.variables, retry, call.name),
      );
  /** Puts a built-in answer's counts in the access log and returns its body. */
  const served = (answer: BuiltInAnswer, entry: AccessLogEntry): string => {
    entry.upstreamCalls = answer.upstreamCalls;
    if (answer.dropped) entry.dropped = answer.dropped;
    if (answer.partial) entry.partial = true;
    return withoutKey(answer.body, apiKey);
  };
  const logger = options.logger ?? jsonLineWriter();
  const log = (entry: AccessLogEntry) => {
    try {
      logger(entry);
    } catch {
      // A failing logger must not turn a served request into an error.
    }
  };

  function baseEntry(method: string): AccessLogEntry {
    return { time: new Date().toISOString(), method, status: 0, durationMs: 0 };
  }

  /** What the runtime said about a failed upstream call (e.g. a refused connection), for the log only. */
  function noteCause(entry: AccessLogEntry, error: unknown): void {
    if (error instanceof ProxyError && typeof error.cause === 'string') entry.detail = scrub(error.cause, [apiKey]);
  }

  function errorCode(error: unknown): string {
    return error instanceof ProxyError ? error.code : 'internal_error';
  }

  /** The client's address as rate limits count it (an IPv6 address by its /64). */
  function clientAddressOf(request: Request, context: RuntimeContext): string {
    const custom = options.clientAddress?.(request);
    if (custom) return rateLimitAddress(custom);
    if (trustProxy) {
      const hops = request.headers.get('x-forwarded-for')?.split(',');
      const last = hops?.[hops.length - 1]?.trim();
      if (last) return rateLimitAddress(last);
    }
    const address = connectionAddress(request, context);
    return address ? rateLimitAddress(address) : 'unknown';
  }

  /** A query's body, from the cache or loaded (each upstream call counted against the address's misses). */
  async function readQuery(
    call: OperationCall,
    entry: AccessLogEntry,
    address: string,
    context: RuntimeContext,
  ): Promise<{ body: string; state?: CacheState }> {
    // Which upstream field the list is read through (a business account's index, or the list itself).
    const source = isBuiltIn(call) ? await documents.fieldFor(call) : call.name;
    // A forged page cursor is refused first: it costs no cache read and no count.
    if (isBuiltIn(call)) await builtIns.checkCursor(call.name, call.variables, source);
    // Each upstream call spends the merchant's key: misses count per address, hits are free.
    const countMiss = () =>
      consumeRateLimit(store, `query:${address}`, rateLimits.queryMisses, 'queries').catch((error: unknown) => {
        // A store that cannot count must not stop reads (they skip the cache the same way); only the limit refuses.
        if (error instanceof ProxyError && error.status === 429) throw error;
        log({ ...baseEntry('RATE_LIMIT'), status: 0, error: errorCode(error) });
      });
    // The miss itself is counted once (before it loads); each further call that fills its page counts too,
    // so a list that is nearly all other records costs the address what it costs the key.
    const send = sendBuiltIn(call, true);
    let calls = 0;
    const countedSend = async (variables: Variables) => {
      if (calls++ > 0) await countMiss();
      return send(variables);
    };
    const load = isBuiltIn(call)
      ? async () => served(await builtIns.query(call.name, call.variables, countedSend, source), entry)
      : () => documents.attempt(call, (request) => callUpstream(upstream, request.query, request.variables, true));
    if (!cache) return countMiss().then(async () => ({ body: await load() }));
    return cache.get(`${call.name}:${canonicalVariables(call.variables)}`, load, {
      beforeMiss: countMiss,
      waitUntil: waitUntilOf(context),
    });
  }

  async function query(
    call: OperationCall,
    cors: Record<string, string>,
    entry: AccessLogEntry,
    address: string,
    context: RuntimeContext,
  ): Promise<Response> {
    const { body, state } = await readQuery(call, entry, address, context);
    if (!cache || !state) return jsonResponse(200, body, { 'cache-control': NO_STORE, ...cors });
    entry.cache = state;
    return jsonResponse(200, body, { 'cache-control': cache.cacheControl, 'x-cache': state, ...cors });
  }

  /**
   * After a built-in coupon request failed in words the proxy does not recognize: the campaign as the
   * `campaign` query reads it (cached) decides, 422 when its objective is not a coupon, whatever the
   * upstream's wording. A read that fails, or a coupon campaign, leaves the mint's own error.
   */
  async function checkOffer(call: OperationCall, address: string, context: RuntimeContext): Promise<void> {
    if (!isBuiltIn(call) || call.name !== 'requestCoupon' || typeof call.variables.campaignId !== 'string') return;
    const campaignCall = {
      name: 'campaign',
      operation: BUILT_IN_OPERATIONS.campaign!,
      variables: { id: call.variables.campaignId },
    };
    await checkCouponOffer(
      () => readQuery(campaignCall, baseEntry('CHECK'), address, context).then(({ body }) => body),
      () => documents.hasType('CouponObjective'),
    );
  }

  async function mutate(
    call: OperationCall,
    request: Request,
    context: RuntimeContext,
    cors: Record<string, string>,
    entry: AccessLogEntry,
  ): Promise<Response> {
    const idempotencyKey = idempotencyKeyOf(request);
    const address = clientAddressOf(request, context);
    // Each token Connect has not vouched for lately costs a /me call: those count per address too.
    const shopper =
      signin && needsSignin(call)
        ? await signin.shopper(request, () => consumeRateLimit(store, `signin:${address}`, rateLimits.perAddress))
        : undefined;
    // Without sign-in, "a shopper" is the best the proxy can tell apart: an address and a browser.
    const shopperKey = shopper
      ? `id:${shopper.loyaltyId}`
      : `anon:${await sha256Hex(`${address}\n${request.headers.get('user-agent') ?? ''}`)}`;
    // With a key, a slow upstream is waited for beyond the caller's timeout, so its coupon is recorded.
    const settings = idempotencyKey === undefined ? upstream : mintUpstream;
    /** Set once the caller has its answer: an upstream answer after that is logged as a `LATE` entry. */
    let answered = false;
    const noteLate = (status: number, error?: string) => {
      if (answered) log({ ...baseEntry('LATE'), operation: call.name, status, ...(error ? { error } : {}) });
    };
    const mint = async (): Promise<Outcome> => {
      await consumeRateLimit(store, `addr:${address}`, rateLimits.perAddress);
      await consumeRateLimit(store, `shopper:${shopperKey}`, rateLimits.perShopper);
      try {
        const body = isBuiltIn(call)
          ? served(await builtIns.mint(call.name, call.variables, sendBuiltIn(call, false, settings)), entry)
          : await documents.attempt(call, (request) => callUpstream(settings, request.query, request.variables, false));
        noteLate(200);
        return { status: 200, body };
      } catch (error) {
        noteLate(error instanceof ProxyError ? error.status : 500, errorCode(error));
        noteCause(entry, error);
        // A refusal in words the proxy does not know: the campaign's objective says whether it was "no coupon here".
        if (error instanceof UpstreamError && error.code === 'upstream_error') await checkOffer(call, address, context);
        // A timeout or a broken answer is recorded for the key (the upstream may have minted): say so, and what to do.
        if (idempotencyKey !== undefined && error instanceof UpstreamError && error.mayHaveRun && error.status >= 500) {
          throw new UpstreamError(error.status, error.code, `${error.message} ${UNCERTAIN_MINT}`, true);
        }
        throw error;
      }
    };
    let outcome: Outcome;
    const headers: Record<string, string> = { 'cache-control': NO_STORE, ...cors };
    if (idempotencyKey === undefined) {
      outcome = await mint();
    } else {
      // A key is one client's: a signed-in shopper's, or else the address and browser that sent it, so
      // a key seen elsewhere (a hostile endpoint a page's block pointed at) replays nothing to anyone else.
      const scope = shopper ? shopper.loyaltyId : shopperKey;
      const result = await idempotency
        .run(
          `${scope}:${idempotencyKey}`,
          `${call.name}:${canonicalVariables(call.variables)}`,
          mint,
          // Freed when nothing happened upstream and a retry may succeed; definite answers (404, 422) are kept.
          (error) =>
            (error instanceof ProxyError && error.status === 429) ||
            (error instanceof UpstreamError && !error.mayHaveRun && error.status >= 429),
          {
            answerWithinMs: timeoutMs,
            stillRunning: stillMinting,
            mayHaveRun: holderGone,
            waitUntil: waitUntilOf(context),
          },
        )
        .finally(() => (answered = true));
      outcome = result;
      if (result.replayed) {
        headers['idempotent-replayed'] = 'true';
        entry.replayed = true;
      }
    }
    return jsonResponse(outcome.status, outcome.body, headers);
  }

  return async function marketingProxy(request: Request, runtimeContext?: unknown): Promise<Response> {
    const context: RuntimeContext = typeof runtimeContext === 'object' && runtimeContext !== null ? runtimeContext : {};
    const started = performance.now();
    const entry = baseEntry(request.method);
    let cors: Record<string, string> = {};
    let response: Response;
    try {
      cors = corsHeadersFor(request, allowedOrigins, trustProxy);
      if (request.method === 'OPTIONS') {
        response = preflightResponse(cors);
      } else if (request.method !== 'POST') {
        throw new ProxyError(405, 'method_not_allowed', 'Use POST with a JSON body.', { allow: 'POST, OPTIONS' });
      } else {
        const call = await readOperationCall(request, operations, timeoutMs);
        entry.operation = call.name;
        response =
          call.operation.kind === 'query'
            ? await query(call, cors, entry, clientAddressOf(request, context), context)
            : await mutate(call, request, context, cors, entry);
      }
    } catch (error) {
      const known =
        error instanceof ProxyError
          ? error
          : new ProxyError(500, 'internal_error', 'The Marketing proxy failed to handle the request.');
      if (!(error instanceof ProxyError))
        entry.detail = scrub(error instanceof Error ? error.message : String(error), [apiKey]);
      else noteCause(entry, error);
      entry.error = known.code;
      if (known.code === UPSTREAM_KEY_REFUSED) {
        // Not the shopper's problem: the merchant's configuration. Said once more, as a problem to fix.
        log({
          ...baseEntry('CONFIG'),
          status: known.status,
          error: known.code,
          detail: 'The Marketing API refused MARKETING_API_KEY: fix the proxy configuration.',
        });
      }
      response = errorResponse(known, cors);
    }
    entry.status = response.status;
    entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
    log(entry);
    return response;
  };
}
