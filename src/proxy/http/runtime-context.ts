/**
 * What each Fetch runtime tells a handler about the connection, read the way it tells it, so that
 * `Bun.serve({ fetch: marketingProxy })` and `Deno.serve(marketingProxy)` give the rate limits the
 * shopper's own address instead of one shared "unknown" bucket. Next.js route handlers get no address
 * (its second argument holds only `params`); Cloudflare Workers pass `env` there, and the address comes
 * from `cf-connecting-ip` through `clientAddress: cloudflareClientAddress`.
 */

/** What a runtime adapter knows about the connection; `toNodeHandler` passes the socket's address. */
export interface RequestContext {
  clientAddress?: string;
  /**
   * Keeps work running after the response went out, where the runtime would end it (Cloudflare
   * Workers' `ctx.waitUntil`, Next.js's `after`): the refresh of a stale cached answer, and a coupon
   * request's upstream call that outlasts the timeout, whose answer is recorded for its Idempotency-Key.
   */
  waitUntil?(work: Promise<unknown>): void;
}

/**
 * The second argument a Fetch runtime hands its handler: the proxy's own `RequestContext`, Bun's
 * `Server` (`requestIP`), Deno's `ServeHandlerInfo` (`remoteAddr`), a Worker's `ExecutionContext`
 * (`waitUntil`), Next.js's `{ params }`, or anything else (ignored).
 */
export type RuntimeContext = RequestContext | object;

interface BunServerLike {
  requestIP(request: Request): { address?: unknown } | null;
}
interface DenoServeInfoLike {
  remoteAddr: { hostname?: unknown };
}

/** The client's address as the runtime gives it, or undefined. */
export function connectionAddress(request: Request, context: RuntimeContext | undefined): string | undefined {
  if (!context || typeof context !== 'object') return undefined;
  let address: unknown;
  if ('clientAddress' in context) address = context.clientAddress;
  else if ('requestIP' in context && typeof context.requestIP === 'function') {
    address = (context as BunServerLike).requestIP(request)?.address;
  } else if ('remoteAddr' in context && typeof context.remoteAddr === 'object' && context.remoteAddr !== null) {
    address = (context as DenoServeInfoLike).remoteAddr.hostname;
  }
  return typeof address === 'string' && address !== '' ? address : undefined;
}

/** The runtime's way to keep background work alive past the response, if it has one. */
export function waitUntilOf(context: RuntimeContext | undefined): ((work: Promise<unknown>) => void) | undefined {
  if (!context || typeof context !== 'object' || !('waitUntil' in context) || typeof context.waitUntil !== 'function')
    return undefined;
  const { waitUntil } = context as Required<Pick<RequestContext, 'waitUntil'>>;
  return (work) => waitUntil.call(context, work);
}
