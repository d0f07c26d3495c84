// Deno, as the README shows: Deno.serve(marketing) hands the handler its connection info (remoteAddr).
// Deno runs (and `deno check`s) TypeScript, so this imports the proxy's source.
import { createMarketingProxy } from '../../../src/proxy/index.ts';
import { proxyOptions } from './options.mjs';

const marketing = createMarketingProxy(proxyOptions(Deno.env.toObject()));

Deno.serve({ port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => {} }, marketing);
