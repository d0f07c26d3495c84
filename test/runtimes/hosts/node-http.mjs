// Plain Node, as the README shows: the built package and its Node adapter.
import http from 'node:http';
import { createMarketingProxy } from 'loyalty-widgets/proxy';
import { createNodeTransport, toNodeHandler } from 'loyalty-widgets/proxy/node';
import { proxyOptions } from './options.mjs';

const marketing = createMarketingProxy({ ...proxyOptions(process.env), transport: createNodeTransport() });
http.createServer(toNodeHandler(marketing)).listen(Number(process.env.PORT), '127.0.0.1');
