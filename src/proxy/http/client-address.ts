import { rateLimitAddress } from './rate-limit.ts';
import { connectionAddress, type RuntimeContext } from './runtime-context.ts';

/**
 * How the proxy tells the client's address, as rate limits count it (an IPv6 address by its /64):
 * the host's own reader first, then (behind a trusted proxy) the last `X-Forwarded-For` hop, then
 * the connection.
 */
export function clientAddressReader(
  custom: ((request: Request) => string | undefined) | undefined,
  trustProxy: boolean,
): (request: Request, context: RuntimeContext) => string {
  return (request, context) => {
    const given = custom?.(request);
    if (given) return rateLimitAddress(given);
    if (trustProxy) {
      const hops = request.headers.get('x-forwarded-for')?.split(',');
      const last = hops?.[hops.length - 1]?.trim();
      if (last) return rateLimitAddress(last);
    }
    const address = connectionAddress(request, context);
    return address ? rateLimitAddress(address) : 'unknown';
  };
}

/**
 * For `clientAddress` on Cloudflare Workers: the address Cloudflare's edge puts in `cf-connecting-ip`
 * (it replaces any value the client sent). Only there: elsewhere a client can write the header itself.
 */
export function cloudflareClientAddress(request: Request): string | undefined {
  return request.headers.get('cf-connecting-ip') ?? undefined;
}
