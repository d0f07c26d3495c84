/**
 * A merchant's plain static web host for end-to-end tests: HTML files with a script tag, the built
 * dist/ as it would be uploaded, the Marketing proxy at /api/marketing (and /shop/marketing), and optionally a strict
 * Content-Security-Policy on every response. No build step, no dev server.
 */
import { Hono, type Context } from 'hono';
import { compress } from 'hono/compress';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createMarketingProxy,
  renderFirstPage,
  type MarketingProxyHandler,
  type WidgetAttributes,
} from '../../src/proxy/index.ts';
import { createNodeTransport } from '../../src/proxy/node.ts';

export interface StaticSiteOptions {
  upstreamUrl: string;
  apiKey: string;
  connectUrl: string;
  /** Placeholders such as `%CONNECT_URL%` replaced in the HTML pages, as a merchant would type them. */
  replacements?: Record<string, string>;
  /** Sent as Content-Security-Policy on every response when set. */
  csp?: (origin: string) => string;
  /** The demo merchant site's pages under /demo/, as deployed: dist/loyalty-widgets.js in place of the dev server's source entry. */
  demo?: { clientId: string };
  /** Pages made while the site runs (bench/page.ts's static floor), by path, read at each request. */
  pages?: Map<string, string>;
  /** The host the site is served on and named by: `localhost` (default) or `127.0.0.1`, another site to the browser. */
  host?: 'localhost' | '127.0.0.1';
}

export interface StaticSite {
  origin: string;
  /** Every request that reached the proxy, as `METHOD path?query`, in the order it came. */
  marketingRequests: string[];
  close(): Promise<void>;
}

export async function startStaticSite(options: StaticSiteOptions): Promise<StaticSite> {
  const proxy = createMarketingProxy({
    upstreamUrl: options.upstreamUrl,
    apiKey: options.apiKey,
    connectUrl: options.connectUrl,
    transport: createNodeTransport(),
    logger: () => {},
  });
  const app = new Hono();
  let origin = '';
  app.use('*', async (c, next) => {
    await next();
    if (options.csp) c.header('Content-Security-Policy', options.csp(origin));
  });
  const marketingRequests: string[] = [];
  const proxied = (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    marketingRequests.push(`${c.req.method} ${url.pathname}${url.search}`);
    return proxy(c.req.raw);
  };
  app.all('/api/marketing', proxied);
  // The same proxy where a page's `<meta name="loyalty-endpoint">` names another path than the default.
  app.all('/shop/marketing', proxied);
  // Served gzipped, as any merchant's web server or CDN would.
  app.use('/dist/*', compress());
  app.get('/:page{[\\w-]+\\.html}', async (c, next) => {
    const made = options.pages?.get(`/${c.req.param('page')}`);
    const file = made ?? (await readFile(join('test/e2e/fixtures', c.req.param('page'))).catch(() => undefined));
    if (file === undefined) return next();
    let page = file.toString('utf8');
    for (const [placeholder, value] of Object.entries({ ...options.replacements, '%SHOP_ORIGIN%': origin }))
      page = page.replaceAll(placeholder, value);
    return c.html(await renderFirstPages(page, proxy));
  });
  if (options.demo) {
    const { clientId } = options.demo;
    app.get('/demo/:page{[\\w-]+\\.html}', async (c, next) => {
      const file = await readFile(join('demo', c.req.param('page'))).catch(() => undefined);
      if (!file) return next();
      const page = file
        .toString('utf8')
        .replaceAll('src="./main.ts"', 'src="/dist/loyalty-widgets.js"')
        .replaceAll('href="./loyalty-widgets.css"', 'href="/dist/loyalty-widgets.css"')
        .replaceAll('%LOYALTY_CONNECT_URL%', options.connectUrl)
        .replaceAll('%LOYALTY_CLIENT_ID%', clientId);
      return c.html(page);
    });
    app.use('/demo/*', compress());
    app.use('/demo/*', serveStatic({ root: '.' }));
  }
  app.use('/dist/*', serveStatic({ root: '.' }));
  app.use('/*', serveStatic({ root: 'test/e2e/fixtures' }));
  const host = options.host ?? 'localhost';
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: host }, () => resolve(started));
  });
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    marketingRequests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * Each `<!-- first-page <tag> {attributes} -->` of a page, printed as the merchant's server prints a
 * widget with its first page inside (renderFirstPage, through the site's own proxy).
 */
async function renderFirstPages(page: string, proxy: MarketingProxyHandler): Promise<string> {
  const marks = [...page.matchAll(/<!-- first-page ([\w-]+) (\{.*?\}) -->/g)];
  const printed = await Promise.all(
    marks.map(([, tag, attributes]) => renderFirstPage(proxy, tag!, JSON.parse(attributes!) as WidgetAttributes)),
  );
  return marks.reduce((html, [mark], index) => html.replace(mark, printed[index]!), page);
}

/** A strict policy: no inline script or style, no eval, Trusted Types, only Connect and the images' origin abroad. */
export function strictCsp(connectUrl: string, marketingOrigin: string) {
  return (_origin: string) =>
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' ${marketingOrigin}`,
      `connect-src 'self' ${connectUrl}`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
      'trusted-types lit-html',
    ].join('; ');
}
