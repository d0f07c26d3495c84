/**
 * The Marketing proxy: a Fetch-API handler that forwards the widgets' named operations to the
 * Marketing GraphQL API with the `x-api-key` the browser must never see. Works as it is in Fetch
 * runtimes (Next.js route handlers, Cloudflare Workers, Deno, Bun) and through `toNodeHandler`
 * (./node.ts) in `http.createServer`, Express, Connect and vite. The Node adapter and the Redis store
 * are separate entry points (`loyalty-widgets/proxy/node`, `loyalty-widgets/proxy/redis`) so that a
 * Fetch runtime never loads Node-only modules, and so is the doctor (`loyalty-widgets/proxy/doctor`),
 * so that no bundler building this entry meets an optional peer package (graphql).
 */
export { createMarketingProxy } from './app/marketing-proxy.ts';
export { DEFAULT_TIMEOUT_MS, type MarketingProxyHandler, type MarketingProxyOptions } from './app/options.ts';
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
export { createMemoryStore, type MemoryStoreOptions } from './stores/memory.ts';
export type { ClaimCounter, ClaimResult, ProxyStore, CounterState } from './stores/contract.ts';
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
export { cloudflareClientAddress } from './http/client-address.ts';
export type { RequestContext, RuntimeContext } from './http/runtime-context.ts';
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
