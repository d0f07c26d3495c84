/**
 * The test hosts' window on their store: `POST /__store` with `{ op, key, value?, ttlMs?, windowMs?, counters? }`
 * runs that one store operation and answers its result as JSON, so the store conformance suite (in
 * Node) drives the real store where it runs (a Durable Object, Deno KV). `GET /__instance` names this
 * isolate or process, to tell instances apart. Test hosts only: a merchant's proxy has neither route.
 * Every other request: undefined.
 */
import type { MarketingProxyOptions } from '../../../../src/proxy/index.ts';
import { claimIn, type ClaimCounter, type ProxyStore } from '../../../../src/proxy/stores/contract.ts';

interface StoreCall {
  op: string;
  key: string;
  value: string;
  ttlMs: number;
  windowMs: number;
  counters: ClaimCounter[];
}

export async function storeRoutes(
  request: Request,
  store: ProxyStore,
  instance: string,
): Promise<Response | undefined> {
  const { pathname } = new URL(request.url);
  if (pathname === '/__instance') return Response.json({ instance });
  if (pathname !== '/__store') return undefined;
  const { op, key, value, ttlMs, windowMs, counters } = (await request.json()) as StoreCall;
  switch (op) {
    case 'get':
      return Response.json({ value: (await store.get(key)) ?? null });
    case 'set':
      await store.set(key, value, ttlMs);
      return Response.json({});
    case 'add':
      return Response.json({ added: await store.add(key, value, ttlMs) });
    case 'delete':
      await store.delete(key);
      return Response.json({});
    case 'increment':
      return Response.json(await store.increment(key, windowMs));
    case 'claim':
      return Response.json(await claimIn(store, key, value, ttlMs, counters));
    default:
      return Response.json({ error: `unknown op ${op}` }, { status: 400 });
  }
}

/**
 * The proxy's options for the shared-store hosts, from their environment: a per-address coupon limit
 * small enough for the suite to reach, a timeout short enough for a slow mint to outlast it, and the
 * log quiet (hundreds of requests per case).
 */
export function proxyOptions(env: Record<string, string | undefined>): MarketingProxyOptions {
  return {
    upstreamUrl: env.MARKETING_API_URL ?? '',
    apiKey: env.MARKETING_API_KEY ?? '',
    rateLimits: { perAddress: { limit: Number(env.PER_ADDRESS_LIMIT ?? 60), windowSeconds: 600 }, perShopper: false },
    timeoutMs: Number(env.TIMEOUT_MS ?? 10_000),
    logger: () => {},
  };
}
