// Cloudflare Workers, as the README shows: settings come from the Worker's env, so the proxy is
// created on the first request; the shopper's address is Cloudflare's cf-connecting-ip; `ctx` keeps
// the refresh of a stale cached answer alive after the response (waitUntil).
import { cloudflareClientAddress, createMarketingProxy, type MarketingProxyHandler } from 'loyalty-widgets/proxy';
import { proxyOptions } from './options.mjs';

let marketing: MarketingProxyHandler | undefined;

export default {
  fetch(
    request: Request,
    env: Record<string, string>,
    ctx: { waitUntil(work: Promise<unknown>): void },
  ): Promise<Response> {
    marketing ??= createMarketingProxy({ ...proxyOptions(env), clientAddress: cloudflareClientAddress });
    return marketing(request, ctx);
  },
};
