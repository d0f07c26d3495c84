// Node as the README shows it, on the Redis store: every process is given the same REDIS_URL.
import { createServer } from 'node:http';
import { createMarketingProxy } from '../../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../../src/proxy/node.ts';
import { createRedisStore } from '../../../../src/proxy/redis-store.ts';
import { proxyOptions, storeRoutes } from './store-rpc.ts';

const store = createRedisStore({ url: process.env.REDIS_URL!, keyPrefix: process.env.KEY_PREFIX });
const marketing = createMarketingProxy({ ...proxyOptions(process.env), store });
const instance = crypto.randomUUID();
const handler = toNodeHandler(
  async (request, context) => (await storeRoutes(request, store, instance)) ?? marketing(request, context),
);

createServer(handler).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => void store.close().finally(() => process.exit(0)));
