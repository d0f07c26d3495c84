// Deno, as the README shows: Deno.serve(marketing) hands the handler its connection info (remoteAddr).
// Deno finds loyalty-widgets in the project's node_modules (package.json beside it).
import { createMarketingProxy } from 'loyalty-widgets/proxy';
import { proxyOptions } from './options.mjs';

const marketing = createMarketingProxy(proxyOptions(Deno.env.toObject()));

Deno.serve({ port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => {} }, marketing);
