/**
 * The demo merchant site's server side, as a host site would set it up: the Marketing proxy mounted
 * at /api/marketing (the API key stays on the server), a rewards endpoint at /api/rewards that
 * verifies the shopper first, and the sandbox's Connect address written into the pages' attributes.
 */
import type { Plugin } from 'vite';

export interface DemoSiteOptions {
  /** The Marketing GraphQL endpoint the proxy forwards to. */
  upstreamUrl: string;
  /** The Marketing API key; only the proxy ever sees it. */
  apiKey: string;
  /** The Connect authority the sign-in buttons use. */
  connectUrl: string;
  /** The registered app id the sign-in buttons use. */
  clientId: string;
  /** Write the proxy's access log (one JSON line per request) to stdout; default true. */
  accessLog?: boolean;
}

/** Campaigns whose coupons the demo's proxy gives only to signed-in shoppers (see index.html). */
export const MEMBERS_ONLY_CAMPAIGNS = ['camp-harbor-beans'];

export function demoSitePlugins(options: DemoSiteOptions): Plugin[] {
  const mountProxy: Plugin = {
    name: 'loyalty-demo-marketing-proxy',
    async configureServer(server) {
      const { createMarketingProxy } = await import('../src/proxy/index.ts');
      const { createNodeTransport, toNodeHandler } = await import('../src/proxy/node.ts');
      const handler = createMarketingProxy({
        upstreamUrl: options.upstreamUrl,
        apiKey: options.apiKey,
        connectUrl: options.connectUrl,
        // Tokens Connect issued to any other app are refused.
        clientId: options.clientId,
        // The shop page's members' coupon is for signed-in shoppers: the proxy refuses anyone else,
        // whatever the page does. Every other campaign stays open to anonymous claims.
        requireSignin: MEMBERS_ONLY_CAMPAIGNS,
        // Upstream calls over node:http with keep-alive: cheaper than the global fetch in Node.
        transport: createNodeTransport(),
        ...(options.accessLog === false ? { logger: () => {} } : {}),
      });
      server.middlewares.use('/api/marketing', toNodeHandler(handler));
      // The shop's own server code: rewards go only to a shopper verifyShopper() vouched for.
      const { rewardsEndpoint } = await import('./rewards-server.ts');
      server.middlewares.use(
        '/api/rewards',
        rewardsEndpoint({ connectUrl: options.connectUrl, clientId: options.clientId }),
      );
    },
  };
  // What a merchant links from dist/loyalty-widgets.css: the elements' space, held before they load.
  const reservedSpace: Plugin = {
    name: 'loyalty-demo-reserved-space',
    async configureServer(server) {
      const { stylesheetCss } = await import('../src/reserved-space.ts');
      server.middlewares.use('/loyalty-widgets.css', (_request, response) => {
        response.setHeader('Content-Type', 'text/css; charset=utf-8');
        response.end(stylesheetCss());
      });
    },
  };
  const pageSettings: Plugin = {
    name: 'loyalty-demo-page-settings',
    transformIndexHtml(html) {
      return html
        .replaceAll('%LOYALTY_CONNECT_URL%', options.connectUrl)
        .replaceAll('%LOYALTY_CLIENT_ID%', options.clientId);
    },
  };
  return [mountProxy, reservedSpace, pageSettings];
}
