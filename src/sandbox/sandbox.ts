/** Starts both sandbox services: Connect and Marketing. */
import type { AppRegistration, RegisterAppInput } from './connect/apps.ts';
import { startConnect } from './connect/start.ts';
import type { SandboxStats } from './marketing/resolvers.ts';
import { startMarketing } from './marketing/start.ts';
import type { SandboxFlavor, SandboxOptions } from './options.ts';

export interface RunningSandbox {
  /** e.g. http://localhost:4001; also the issuer. */
  connectUrl: string;
  /** e.g. http://localhost:4002/graphql */
  marketingUrl: string;
  apiKey: string;
  /** Seeded; app_id is always 'loyalty-demo'. */
  demoApp: AppRegistration;
  registerApp(input: RegisterAppInput): Promise<AppRegistration>;
  /** Rotates in a new signing key (new kid, signs from now on; older keys stay in /jwks). */
  addSigningKey(): Promise<string>;
  /** Counters since start (or resetStats), counted at the GraphQL server. */
  stats(): SandboxStats;
  resetStats(): void;
  /** The Marketing flavour this sandbox serves. */
  flavor: SandboxFlavor;
  /** The next `count` authenticated Marketing requests answer 429 (a test hook). */
  throttleNext(count: number): void;
  close(): Promise<void>;
}

/**
 * Starts Connect and Marketing on localhost, as `npm start` does (without the demo site). Ports default
 * to 4001 and 4002; `0` picks free ones, as tests do.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'loyalty-widgets/sandbox';
 *
 * const sandbox = await startSandbox({ connectPort: 0, marketingPort: 0 });
 * const app = await sandbox.registerApp({ name: 'My shop', redirectUris: ['http://localhost:3000/'] });
 * // The button: authority = sandbox.connectUrl, client-id = app.app_id.
 * // The proxy: upstreamUrl = sandbox.marketingUrl, apiKey = sandbox.apiKey. Sign in as demo / demo.
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const connect = await startConnect(options);
  let marketing;
  try {
    marketing = await startMarketing(options);
  } catch (error) {
    await connect.close();
    throw error;
  }
  return {
    connectUrl: connect.connectUrl,
    marketingUrl: marketing.marketingUrl,
    apiKey: marketing.apiKey,
    demoApp: connect.demoApp,
    registerApp: connect.registerApp,
    addSigningKey: connect.addSigningKey,
    stats: marketing.stats,
    resetStats: marketing.resetStats,
    flavor: marketing.flavor,
    throttleNext: marketing.throttleNext,
    close: async () => {
      await Promise.all([connect.close(), marketing.close()]);
    },
  };
}
