/**
 * Starts the real sandbox (Connect + Marketing on ephemeral ports, data in a temporary folder) and
 * the real Marketing proxy in front of it, for browser and end-to-end tests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSeed, startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { hostileBusinessAccounts, hostileCampaigns } from '../browser/marketing/hostile-seed.ts';
import { createMarketingProxy } from '../../src/proxy/index.ts';
import { toNodeHandler } from '../../src/proxy/node.ts';

export interface TestEnv {
  connectUrl: string;
  marketingUrl: string;
  proxyPath: string;
  clientId: string;
  redirectUri: string;
}

export interface TestServices {
  sandbox: RunningSandbox;
  proxyListener: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  env: TestEnv;
  close(): Promise<void>;
}

export async function startTestServices({ testOrigin }: { testOrigin: string }): Promise<TestServices> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-sandbox-'));
  // The default records plus a hostile business account and campaign (unsafe URLs, markup in text).
  const seed = defaultSeed();
  const sandbox = await startSandbox({
    connectPort: 0,
    marketingPort: 0,
    dataDir,
    seed: { businessAccounts: [...seed.businessAccounts, ...hostileBusinessAccounts], campaigns: [...seed.campaigns, ...hostileCampaigns] },
  });
  const redirectUri = `${testOrigin}/test/browser/fixtures/callback.html`;
  const app = await sandbox.registerApp({ name: 'Widget tests', redirectUris: [redirectUri, `${testOrigin}/`] });
  const handler = createMarketingProxy({
    upstreamUrl: sandbox.marketingUrl,
    apiKey: sandbox.apiKey,
    connectUrl: sandbox.connectUrl,
    // One browser is one anonymous shopper to the proxy; the suites claim more coupons than the
    // production default of 10 per 10 minutes allows.
    rateLimits: { perShopper: { limit: 200, windowSeconds: 600 }, perAddress: { limit: 500, windowSeconds: 600 }, queryMisses: { limit: 5000, windowSeconds: 600 } },
    // The access log is the proxy's own concern (tested in test/node); here it would bury the results.
    logger: () => {},
  });
  const listener = toNodeHandler(handler);
  return {
    sandbox,
    proxyListener: (req, res) => listener(req, res),
    env: { connectUrl: sandbox.connectUrl, marketingUrl: sandbox.marketingUrl, proxyPath: '/api/marketing', clientId: app.app_id, redirectUri },
    async close() {
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
