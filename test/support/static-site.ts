/**
 * A merchant's plain static web host for end-to-end tests: HTML files with a script tag, the built
 * dist/ as it would be uploaded, the Marketing proxy at /api/marketing, and optionally a strict
 * Content-Security-Policy on every response. No build step, no dev server.
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMarketingProxy } from '../../src/proxy/index.ts';
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
  app.all('/api/marketing', (c) => proxy(c.req.raw));
  // Served gzipped, as any merchant's web server or CDN would.
  app.use('/dist/*', compress());
  app.get('/:page{[\\w-]+\\.html}', async (c, next) => {
    const made = options.pages?.get(`/${c.req.param('page')}`);
    if (made !== undefined) return c.html(made);
    const file = await readFile(join('test/e2e/fixtures', c.req.param('page'))).catch(() => undefined);
    if (!file) return next();
    let page = file.toString('utf8');
    for (const [placeholder, value] of Object.entries({ ...options.replacements, '%SHOP_ORIGIN%': origin }))
      page = page.replaceAll(placeholder, value);
    return c.html(page);
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
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
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
