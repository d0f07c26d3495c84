// Bun, as the README shows: the handler is the server's fetch; Bun passes its server (requestIP) along.
import { createMarketingProxy } from 'loyalty-widgets/proxy';
import { proxyOptions } from './options.mjs';

const marketing = createMarketingProxy(proxyOptions(process.env));

export default { port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: marketing };
