/**
 * The whole local product in one process: the sandbox (Connect + Marketing) and the demo merchant
 * site served by vite with the Marketing proxy mounted at /api/marketing. `npm start` runs it on the
 * documented ports; the end-to-end tests run it on free ports with a throwaway data folder.
 */
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/sandbox/index.ts';
import { demoSitePlugins } from '../demo/vite-plugins.ts';

export interface StackOptions extends SandboxOptions {
  /** Port of the demo site; 0 picks a free one. */
  demoPort?: number;
  /** Print the proxy's access log; default true. */
  accessLog?: boolean;
}

export interface RunningStack {
  demoUrl: string;
  connectUrl: string;
  marketingUrl: string;
  sandbox: RunningSandbox;
  vite: ViteDevServer;
  close(): Promise<void>;
}

const demoRoot = fileURLToPath(new URL('../demo', import.meta.url));

export async function startStack(options: StackOptions = {}): Promise<RunningStack> {
  const demoPort = options.demoPort ?? Number(process.env.DEMO_PORT ?? 5173);
  // The demo app's redirect URIs are built on the demo origin, so the port must be known first.
  const port = demoPort === 0 ? await freePort() : demoPort;
  const demoOrigin = `http://localhost:${port}`;
  const sandbox = await startSandbox({ ...options, demoOrigin });
  let vite: ViteDevServer | undefined;
  try {
    vite = await createViteServer({
      configFile: false,
      root: demoRoot,
      logLevel: 'warn',
      clearScreen: false,
      server: { port, strictPort: true, host: 'localhost' },
      plugins: demoSitePlugins({
        upstreamUrl: sandbox.marketingUrl,
        apiKey: sandbox.apiKey,
        connectUrl: sandbox.connectUrl,
        clientId: sandbox.demoApp.app_id,
        accessLog: options.accessLog,
      }),
    });
    await vite.listen();
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const running = vite;
  return {
    demoUrl: `${demoOrigin}/`,
    connectUrl: sandbox.connectUrl,
    marketingUrl: sandbox.marketingUrl,
    sandbox,
    vite: running,
    async close() {
      await running.close();
      await sandbox.close();
    },
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, 'localhost', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
