// Deno as the README shows it, on the Deno KV store: every process opens the same KV file.
import { createMarketingProxy } from '../../../../src/proxy/index.ts';
import { createDenoKvStore } from '../../../../src/proxy/deno-kv-store.ts';
import { proxyOptions, storeRoutes } from './store-rpc.ts';

const store = createDenoKvStore(await Deno.openKv(Deno.env.get('KV_PATH')));
const marketing = createMarketingProxy({ ...proxyOptions(Deno.env.toObject()), store });
const instance = crypto.randomUUID();

Deno.serve(
  { port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => {} },
  async (request, info) => (await storeRoutes(request, store, instance)) ?? marketing(request, info),
);
