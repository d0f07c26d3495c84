// Bun, as the README shows: the handler is the server's fetch; Bun passes its server (requestIP) along.
// Bun runs TypeScript, so this imports the proxy's source as a merchant's own Bun project would import the package.
import { createMarketingProxy } from '../../../src/proxy/index.ts';
import { proxyOptions } from './options.mjs';

const marketing = createMarketingProxy(proxyOptions(process.env));

export default { port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: marketing };
