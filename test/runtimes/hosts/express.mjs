// Express 5, as the README shows, with a JSON body parser mounted first (the adapter re-reads req.body).
import express from 'express';
import { createMarketingProxy } from 'loyalty-widgets/proxy';
import { createNodeTransport, toNodeHandler } from 'loyalty-widgets/proxy/node';
import { proxyOptions } from './options.mjs';

const marketing = createMarketingProxy({ ...proxyOptions(process.env), transport: createNodeTransport() });
const app = express();
app.use(express.json());
app.use('/api/marketing', toNodeHandler(marketing));
app.listen(Number(process.env.PORT), '127.0.0.1');
