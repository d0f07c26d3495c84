/**
 * Two proxy instances sharing one store, for each store the proxy ships, started the way a merchant
 * runs them: the memory store shared by two proxies in one Node process (all it can share), two Node
 * processes on one Redis, two `wrangler dev` processes (two workerd isolates) on one Durable Object
 * namespace (the second Worker bound to the first one's class through `script_name`), and two Deno
 * processes on one Deno KV file. Each instance serves the proxy and the test routes of hosts/store-rpc.ts.
 */
import { createServer } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createMarketingProxy, createMemoryStore } from '../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../src/proxy/node.ts';
import { closeServer, listen } from '../../node/support/proxy-server.ts';
import { startRedis } from '../../node/support/redis.ts';
import { startHost, type HostSettings, type RuntimeHost } from '../support/hosts.ts';
import { proxyOptions, storeRoutes } from './hosts/store-rpc.ts';

const HOSTS = resolve(import.meta.dirname, 'hosts');
const WORK = resolve(import.meta.dirname, '../../../test-results/runtimes');
const bin = (name: string) => resolve(import.meta.dirname, '../../../node_modules/.bin', name);

export interface SharedStoreSettings {
  MARKETING_API_URL: string;
  MARKETING_API_KEY: string;
  PER_ADDRESS_LIMIT: string;
  TIMEOUT_MS: string;
}

export interface StoreInstances {
  /** Each instance's origin (the proxy is served at `${origin}/api/marketing`). */
  origins: string[];
  stop(): Promise<void>;
}

export interface SharedStoreKind {
  name: string;
  start(settings: SharedStoreSettings): Promise<StoreInstances>;
}

const hostSettings = (settings: SharedStoreSettings): HostSettings => ({
  ...settings,
  ALLOWED_ORIGINS: '',
  CACHE_TTL_SECONDS: '30',
});

/** Starts each host in turn (a failure stops those already running). */
async function startHosts(hosts: RuntimeHost[], settings: SharedStoreSettings, cleanUp: () => Promise<void>) {
  const running: Awaited<ReturnType<typeof startHost>>[] = [];
  const workDirs: string[] = [];
  const stop = async () => {
    await Promise.all(running.map((host) => host.stop()));
    await Promise.all(workDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    await cleanUp();
  };
  try {
    for (const host of hosts) {
      // A work folder inside the repository (test-results/ is ignored by git), where the hosts resolve
      // this repository's sources and wrangler keeps its worker.env and state.
      await mkdir(WORK, { recursive: true });
      const dir = await mkdtemp(join(WORK, 'host-'));
      workDirs.push(dir);
      running.push(await startHost(host, dir, hostSettings(settings)));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origins: running.map((host) => new URL(host.url).origin), stop };
}

/** A wrangler configuration for one of the two Workers; the second binds to the first one's class. */
function wranglerConfig(dir: string, name: string, owner?: string): string {
  const path = join(dir, 'wrangler.jsonc');
  const binding = { name: 'PROXY_STORE', class_name: 'ProxyStoreObject', ...(owner ? { script_name: owner } : {}) };
  writeFileSync(
    path,
    JSON.stringify({
      name,
      main: join(HOSTS, 'worker.ts'),
      compatibility_date: '2025-09-01',
      durable_objects: { bindings: [binding] },
      ...(owner ? {} : { migrations: [{ tag: 'v1', new_sqlite_classes: ['ProxyStoreObject'] }] }),
    }),
  );
  return path;
}

export const SHARED_STORES: SharedStoreKind[] = [
  {
    name: 'memory (two proxies in one process)',
    async start(settings) {
      const store = createMemoryStore();
      const servers = [0, 1].map((index) => {
        const marketing = createMarketingProxy({ ...proxyOptions({ ...settings }), store });
        const instance = `in-process-${index}`;
        return createServer(
          toNodeHandler(
            async (request, context) => (await storeRoutes(request, store, instance)) ?? marketing(request, context),
          ),
        );
      });
      const origins = await Promise.all(servers.map(listen));
      return { origins, stop: async () => void (await Promise.all(servers.map(closeServer))) };
    },
  },
  {
    name: 'Redis (two Node processes)',
    async start(settings) {
      const redis = await startRedis();
      const env = { REDIS_URL: redis.url, KEY_PREFIX: `shared-${randomUUID()}:` };
      const node = (index: number): RuntimeHost => ({
        name: `Node ${index}`,
        project: 'node',
        serve: (port) => ({
          command: process.execPath,
          args: ['--import', 'tsx', join(HOSTS, 'node-redis.ts')],
          env: { ...env, PORT: String(port) },
        }),
      });
      return startHosts([node(1), node(2)], settings, () => redis.stop());
    },
  },
  {
    name: 'Durable Object (two wrangler dev processes)',
    async start(settings) {
      // wrangler's registry of local Workers, where the second finds the first one's Durable Objects.
      const registry = await mkdtemp(join(tmpdir(), 'loyalty-wrangler-registry-'));
      const owner = `loyalty-store-${randomUUID().slice(0, 8)}`;
      const worker = (name: string, boundTo?: string): RuntimeHost => ({
        name,
        project: 'fetch',
        serve: (port, dir) => ({
          command: bin('wrangler'),
          args: [
            'dev',
            '--config',
            wranglerConfig(dir, name, boundTo),
            '--ip',
            '127.0.0.1',
            '--port',
            String(port),
            '--inspector-port',
            '0',
            '--env-file',
            join(dir, 'worker.env'),
            '--persist-to',
            join(dir, 'state'),
            '--show-interactive-dev-session=false',
          ],
          cwd: dir,
          env: { WRANGLER_REGISTRY_PATH: registry },
        }),
      });
      return startHosts([worker(owner), worker(`${owner}-b`, owner)], settings, () =>
        rm(registry, { recursive: true, force: true }),
      );
    },
  },
  {
    name: 'Deno KV (two Deno processes)',
    async start(settings) {
      const folder = await mkdtemp(join(tmpdir(), 'loyalty-deno-kv-'));
      const host = join(HOSTS, 'deno-kv.ts');
      const deno = (index: number): RuntimeHost => ({
        name: `Deno ${index}`,
        project: 'fetch',
        // The first one type-checks the host against Deno's own types (Deno.Kv as the store takes it).
        prepare: () =>
          index === 1 ? [{ command: bin('deno'), args: ['check', '--no-lock', '--unstable-kv', host] }] : [],
        serve: (port) => ({
          command: bin('deno'),
          args: [
            'run',
            '--no-lock',
            '--unstable-kv',
            '--allow-net=127.0.0.1,localhost',
            '--allow-env',
            `--allow-read=${folder}`,
            `--allow-write=${folder}`,
            host,
          ],
          env: { KV_PATH: join(folder, 'proxy.kv'), PORT: String(port) },
        }),
      });
      return startHosts([deno(1), deno(2)], settings, () => rm(folder, { recursive: true, force: true }));
    },
  },
];
