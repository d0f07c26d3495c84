/**
 * A web-test-runner plugin that starts the real sandbox (Connect + Marketing) and mounts the real
 * Marketing proxy at /api/marketing on the test server's own origin, as a merchant's server would,
 * and a second proxy, in front of the appsync-flavoured Marketing sandbox, at /api/appsync/marketing.
 * Browser tests read where things are from GET /__env.json and the sandboxes' counters from
 * GET /__sandbox/stats and GET /__sandbox/appsync/stats. /__uploads/offer.json is a file an Author
 * uploaded to the site (a planted campaign and coupon), answered 200 to any method, POST too, as PHP's
 * server and many hosts answer a request to a file.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { plantedAnswer, UPLOADED_CAMPAIGN } from './hostile-scenarios.ts';
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
    async serverStart({ config }: { config: { port?: number } }) {
      services = await startTestServices({ testOrigin: `http://localhost:${config.port ?? 8765}` });
    },
    // Koa composes its middleware before serverStart runs, so a late app.use() is never reached;
    // the serve hook is. Requests answered here write to the Node response directly
    // (ctx.respond = false), and the returned placeholder body stops the other middleware.
    async serve(ctx: KoaLikeContext) {
      const running = services;
      if (!running) return undefined;
      if (ctx.path === '/api/marketing' || ctx.path.startsWith('/api/marketing/')) {
        ctx.respond = false;
        await running.proxyListener(ctx.req, ctx.res);
        return { body: '' };
      }
      if (ctx.path === '/api/appsync/marketing' || ctx.path.startsWith('/api/appsync/marketing/')) {
        ctx.respond = false;
        await running.appsyncProxyListener(ctx.req, ctx.res);
        return { body: '' };
      }
      const refusing = running.refusingListeners[ctx.path];
      if (refusing) {
        ctx.respond = false;
        await refusing(ctx.req, ctx.res);
        return { body: '' };
      }
      if (ctx.path === '/__uploads/offer.json') {
        ctx.respond = false;
        ctx.res.writeHead(200, { 'content-type': 'application/json' });
        ctx.res.end(JSON.stringify(plantedAnswer(UPLOADED_CAMPAIGN)));
        return { body: '' };
      }
      if (ctx.path === '/__env.json') {
        ctx.respond = false;
        ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        ctx.res.end(JSON.stringify(running.env));
        return { body: '' };
      }
      if (ctx.path === '/__sandbox/stats' || ctx.path === '/__sandbox/appsync/stats') {
        ctx.respond = false;
        ctx.res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        ctx.res.end(JSON.stringify((ctx.path === '/__sandbox/stats' ? running.sandbox : running.appsync).stats()));
        return { body: '' };
      }
      return undefined;
    },
    async serverStop() {
      await services?.close();
    },
  };
}
