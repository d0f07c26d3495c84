// A Worker as the README shows it, on the Durable Object store; run twice (two `wrangler dev`
// processes, the second bound to the first one's namespace through `script_name`) to share one store.
import {
  cloudflareClientAddress,
  createMarketingProxy,
  type MarketingProxyHandler,
} from '../../../../src/proxy/index.ts';
import { createDurableObjectStore, type ProxyStoreNamespace } from '../../../../src/proxy/cloudflare-store.ts';
import { proxyOptions, storeRoutes } from './store-rpc.ts';

export { ProxyStoreObject } from '../../../../src/proxy/cloudflare-store.ts';

interface Env extends Record<string, unknown> {
  PROXY_STORE: ProxyStoreNamespace;
}

/** This isolate's name (random values exist only inside a handler). */
let instance: string | undefined;
let marketing: MarketingProxyHandler | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: { waitUntil(work: Promise<unknown>): void }): Promise<Response> {
    const store = createDurableObjectStore(env.PROXY_STORE);
    instance ??= crypto.randomUUID();
    const routed = await storeRoutes(request, store, instance);
    if (routed) return routed;
    marketing ??= createMarketingProxy({
      ...proxyOptions(env as Record<string, string | undefined>),
      clientAddress: cloudflareClientAddress,
      store,
    });
    return marketing(request, ctx);
  },
};
