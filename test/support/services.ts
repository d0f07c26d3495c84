/**
 * Starts the real sandbox (Connect + Marketing on ephemeral ports, data in a temporary folder) and
 * the real Marketing proxy in front of it, for browser and end-to-end tests; beside them a second
 * Marketing sandbox in the appsync flavour (AWS AppSync's ways) with its own proxy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultSeed,
  startMarketing,
  startSandbox,
  type RunningMarketing,
  type RunningSandbox,
} from '../../src/sandbox/index.ts';
import { hostileBusinessAccounts, hostileCampaigns } from '../browser/marketing/hostile-seed.ts';
import { createMarketingProxy, type MarketingProxyOptions } from '../../src/proxy/index.ts';
import type { PageFillLimits } from '../../src/proxy/upstream/pages.ts';
import { toNodeHandler } from '../../src/proxy/node.ts';
import { startSlowMarketing, type SlowMarketing } from './slow-marketing.ts';

/** The timeout of the proxy whose upstream never answers a mint (refusingProxyPaths.mintNeverAnswered). */
export const UNANSWERED_MINT_TIMEOUT_MS = 250;

export interface TestEnv {
  connectUrl: string;
  marketingUrl: string;
  proxyPath: string;
  /** The proxy in front of the appsync-flavoured Marketing sandbox. */
  appsyncProxyPath: string;
  /** Proxies that refuse coupons the way a merchant's settings make them. */
  refusingProxyPaths: {
    /** One coupon per shopper per 30 s: a second claim is 429 with Retry-After. */
    oneCouponPer30s: string;
    /** One coupon per shopper per hour. */
    oneCouponPerHour: string;
    /** `requireSignin: true`: a claim without the shopper's tokens is 401 signin_required. */
    signinRequired: string;
    /**
     * In front of a Marketing API that never answers a mint (queries pass), with a timeout of
     * UNANSWERED_MINT_TIMEOUT_MS: a claim is 504 upstream_timeout while the proxy waits, then the
     * timeout it recorded for the Idempotency-Key. Nothing is ever minted through it.
     */
    mintNeverAnswered: string;
  };
  clientId: string;
  redirectUri: string;
}

export interface TestServices {
  sandbox: RunningSandbox;
  proxyListener: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The appsync-flavoured Marketing sandbox and the proxy in front of it. */
  appsync: RunningMarketing;
  appsyncProxyListener: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Proxies in front of the default sandbox that refuse coupons, by path (see TestEnv.refusingProxyPaths). */
  refusingListeners: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>;
  env: TestEnv;
  close(): Promise<void>;
}

export async function startTestServices({ testOrigin }: { testOrigin: string }): Promise<TestServices> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-sandbox-'));
  // The default records plus a hostile business account and campaign (unsafe URLs, markup in text).
  const seed = defaultSeed();
  const sandbox = await startSandbox({
    flavor: 'default',
    connectPort: 0,
    marketingPort: 0,
    dataDir,
    seed: {
      businessAccounts: [...seed.businessAccounts, ...hostileBusinessAccounts],
      campaigns: [...seed.campaigns, ...hostileCampaigns],
    },
  });
  const redirectUri = `${testOrigin}/test/browser/fixtures/callback.html`;
  const app = await sandbox.registerApp({ name: 'Widget tests', redirectUris: [redirectUri, `${testOrigin}/`] });
  const proxyFor = (
    upstream: { marketingUrl: string; apiKey: string },
    pageFill?: Partial<PageFillLimits>,
    options: Partial<MarketingProxyOptions> = {},
  ) =>
    toNodeHandler(
      createMarketingProxy({
        pageFill,
        upstreamUrl: upstream.marketingUrl,
        apiKey: upstream.apiKey,
        connectUrl: sandbox.connectUrl,
        // One browser is one anonymous shopper to the proxy; the suites claim more coupons than the
        // production default of 10 per 10 minutes allows.
        rateLimits: {
          perShopper: { limit: 200, windowSeconds: 600 },
          perAddress: { limit: 500, windowSeconds: 600 },
          queryMisses: { limit: 5000, windowSeconds: 600 },
        },
        // The access log is the proxy's own concern (tested in test/node); here it would bury the results.
        logger: () => {},
        ...options,
      }),
    );
  const listener = proxyFor(sandbox);
  // Proxies configured to refuse, so that the elements' failure tests meet the real proxy's answers:
  // one coupon per shopper per 30 s or per hour, and coupons for signed-in shoppers only.
  const oneCouponPer = (windowSeconds: number) =>
    proxyFor(sandbox, undefined, {
      rateLimits: { perShopper: { limit: 1, windowSeconds }, perAddress: false, queryMisses: false },
    });
  let neverMints: SlowMarketing | undefined;
  let appsync: RunningMarketing;
  try {
    neverMints = await startSlowMarketing(sandbox.marketingUrl, Infinity);
    appsync = await startMarketing({ flavor: 'appsync', marketingPort: 0 });
  } catch (error) {
    await Promise.all([sandbox.close(), neverMints?.close()]);
    throw error;
  }
  const unanswered = neverMints;
  const refusingListeners: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>> = {
    '/api/one-coupon-per-30s/marketing': oneCouponPer(30),
    '/api/one-coupon-per-hour/marketing': oneCouponPer(3600),
    '/api/signin-required/marketing': proxyFor(sandbox, undefined, { requireSignin: true, clientId: app.app_id }),
    '/api/mint-never-answered/marketing': proxyFor(
      { marketingUrl: unanswered.url, apiKey: sandbox.apiKey },
      undefined,
      {
        timeoutMs: UNANSWERED_MINT_TIMEOUT_MS,
      },
    ),
  };
  // One upstream read of at most 2 rows per request: the proxy then hands the elements what a proxy
  // at its filling cap does on a long sparse list, short and empty pages that still have a cursor.
  const appsyncListener = proxyFor(appsync, { maxUpstreamCalls: 1, maxUpstreamLimit: 2 });
  return {
    sandbox,
    proxyListener: (req, res) => listener(req, res),
    appsync,
    appsyncProxyListener: (req, res) => appsyncListener(req, res),
    refusingListeners,
    env: {
      connectUrl: sandbox.connectUrl,
      marketingUrl: sandbox.marketingUrl,
      proxyPath: '/api/marketing',
      appsyncProxyPath: '/api/appsync/marketing',
      refusingProxyPaths: {
        oneCouponPer30s: '/api/one-coupon-per-30s/marketing',
        oneCouponPerHour: '/api/one-coupon-per-hour/marketing',
        signinRequired: '/api/signin-required/marketing',
        mintNeverAnswered: '/api/mint-never-answered/marketing',
      },
      clientId: app.app_id,
      redirectUri,
    },
    async close() {
      await Promise.all([sandbox.close(), appsync.close(), unanswered.close()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
