/**
 * The proxy's options, read once: every check of `createMarketingProxy`'s options, with its message,
 * and the settings the stages use, defaults filled in.
 */
import { HTTP_PROTOCOLS, parseUrl } from '../../shared/url.ts';
import { jsonLineWriter, type AccessLogEntry } from '../http/access-log.ts';
import { DEFAULT_CACHE, type CacheSettings } from '../http/cache.ts';
import { normalizeOrigins } from '../http/cors.ts';
import { checkRateLimitRule, DEFAULT_RATE_LIMITS, type RateLimits } from '../http/rate-limit.ts';
import type { ProxyStore } from '../stores/contract.ts';
import { createMemoryStore } from '../stores/memory.ts';
import { BUILT_IN_OPERATIONS, type PersistedOperation } from '../upstream/operations.ts';
import { resolvePageFill, type PageFillLimits } from '../upstream/pages.ts';
import { introspectionInterval, type IntrospectionOption } from '../upstream/schema.ts';
import { fetchTransport, type UpstreamSettings, type UpstreamTransport } from '../upstream/transport.ts';

// Default upstream timeout: a coupon widget should answer or fail within seconds.
export const DEFAULT_TIMEOUT_MS = 10_000;

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
export const MINT_TIMEOUT_FACTOR = 3;

/** Who must be signed in, and how the proxy asks Connect. */
export interface SigninOptions {
  /** 'all' coupons, or the campaign ids (as {@link comparableId} spells them) whose coupons need sign-in. */
  campaigns: 'all' | ReadonlySet<string>;
  connectUrl: string;
  clientId: string;
}

/** The options as the proxy uses them: checked, with their defaults. */
export interface ProxySettings {
  apiKey: string;
  timeoutMs: number;
  fetch: typeof fetch;
  upstream: UpstreamSettings;
  /** A keyed mutation's upstream call, which may outlive its caller's wait (see MINT_TIMEOUT_FACTOR). */
  mintUpstream: UpstreamSettings;
  allowedOrigins: ReadonlySet<string>;
  trustProxy: boolean;
  store: ProxyStore;
  operations: Record<string, PersistedOperation>;
  cache: CacheSettings | undefined;
  rateLimits: RateLimits;
  signin: SigninOptions | undefined;
  /** How often the upstream's schema may be read again, or false for never. */
  introspectionIntervalMs: number | false;
  cursorSecret: string;
  pageFill: PageFillLimits;
  logger: (entry: AccessLogEntry) => void;
  clientAddress: ((request: Request) => string | undefined) | undefined;
}

/** Reads and checks every option: a bad one throws a TypeError that says what to write instead. */
export function resolveOptions(options: MarketingProxyOptions): ProxySettings {
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
  return {
    apiKey,
    timeoutMs,
    fetch: fetchImpl,
    upstream,
    mintUpstream: { ...upstream, timeoutMs: timeoutMs * MINT_TIMEOUT_FACTOR },
    allowedOrigins: normalizeOrigins(options.allowedOrigins ?? []),
    trustProxy: options.trustProxy === true,
    store: options.store ?? createMemoryStore(),
    operations: resolveOperations(options.operations),
    cache: resolveCache(options.cache),
    rateLimits: resolveRateLimits(options.rateLimits),
    signin: resolveSignin(options),
    introspectionIntervalMs: introspectionInterval(options.introspection),
    cursorSecret: options.cursorSecret || apiKey,
    pageFill: resolvePageFill(options.pageFill),
    logger: options.logger ?? jsonLineWriter(),
    clientAddress: options.clientAddress,
  };
}

function resolveRateLimits(overrides: Partial<RateLimits> | undefined): RateLimits {
  const rateLimits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...overrides };
  checkRateLimitRule('perAddress', rateLimits.perAddress);
  checkRateLimitRule('perShopper', rateLimits.perShopper);
  checkRateLimitRule('queryMisses', rateLimits.queryMisses);
  return rateLimits;
}

function resolveSignin(options: MarketingProxyOptions): SigninOptions | undefined {
  const campaigns = signinCampaignsOf(options.requireSignin);
  if (!campaigns) return undefined;
  if (!options.connectUrl) {
    throw new TypeError(
      'createMarketingProxy: "requireSignin" needs "connectUrl" (the Connect authority) to check tokens.',
    );
  }
  if (typeof options.clientId !== 'string' || options.clientId.trim() === '') {
    throw new TypeError(
      'createMarketingProxy: "requireSignin" needs "clientId" (your app id at Connect): without it a token issued to any app would do.',
    );
  }
  return { campaigns, connectUrl: httpUrl(options.connectUrl, 'connectUrl'), clientId: options.clientId };
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
export function comparableId(id: string): string {
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
