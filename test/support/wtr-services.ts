/**
 * A web-test-runner plugin that starts the real sandbox (Connect + Marketing) and mounts the real
 * Marketing proxy at /api/marketing on the test server's own origin, as a merchant's server would.
 * Browser tests read where things are from GET /__env.json and the sandbox's counters from
 * GET /__sandbox/stats.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startTestServices, type TestServices } from './services.ts';

interface KoaLikeContext {
  path: string;
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean;
}

export function testServicesPlugin() {
  let services: TestServices | undefined;
  return {
    name: 'loyalty-test-services',
    async serverStart({ config, app }: { config: { port?: number }; app: { use(mw: (ctx: KoaLikeContext, next: () => Promise<void>) => Promise<void>): void } }) {
      services = await startTestServices({ testOrigin: `http://localhost:${config.port ?? 8765}` });
      const running = services;
      app.use(async (ctx, next) => {
        if (ctx.path === '/api/marketing' || ctx.path.startsWith('/api/marketing/')) {
          ctx.respond = false;
          await running.proxyListener(ctx.req, ctx.res);
          return;
        }
        if (ctx.path === '/__env.json') {
          ctx.respond = false;
          ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          ctx.res.end(JSON.stringify(running.env));
          return;
        }
        if (ctx.path === '/__sandbox/stats') {
          ctx.respond = false;
          ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          ctx.res.end(JSON.stringify(running.sandbox.stats()));
          return;
        }
        await next();
      });
    },
    async serverStop() {
      await services?.close();
    },
  };
}
