/**
 * The two Marketing proxies the contract suite runs against, each in front of its own real sandbox
 * (Marketing behind a front that can hold mints, and Connect): the Node proxy on Node's `http`, and
 * the WordPress plugin's route in Debian's WordPress (PHP's server with 4 workers, MariaDB), the
 * plugin installed with the contract.json the build writes. Both get the same settings: a listed
 * other origin, a members-only campaign, a short upstream timeout.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMarketingProxy } from '../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../src/proxy/node.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { closeServer, listen } from '../../node/support/proxy-server.ts';
import { startSlowMarketing, type SlowMarketing } from '../../support/slow-marketing.ts';
import { installPluginFromSource } from '../../wordpress/support/plugin-install.ts';
import { phpArray, phpString, startWordPress } from '../../wordpress/support/wordpress.ts';

/** An origin other than the proxy's own that its settings list. */
export const LISTED_ORIGIN = 'https://shop.example';
/** The campaign whose coupons are for signed-in shoppers only. */
export const MEMBERS_CAMPAIGN = 'camp-harbor-morning-latte';
/** Short, so that a slow mint outlasts it within a test. */
export const TIMEOUT_MS = 2000;
/** A key that is easy to search for in everything the proxies send back or log. */
export const CONTRACT_API_KEY = 'contract-marketing-key-3d7e1b9f';
export const REDIRECT_URI = 'http://localhost:7100/callback';

export interface ProxyTarget {
  name: 'node' | 'wordpress';
  /** Where to POST. */
  endpoint: string;
  /** The proxy's own origin. */
  origin: string;
  sandbox: RunningSandbox;
  /** The Marketing API the proxy calls: the sandbox behind a front that can hold mints. */
  slow: SlowMarketing;
  clientId: string;
  /** An app of another merchant at the same Connect. */
  otherClientId: string;
  /** The Connect data folder (its signing keys). */
  dataDir: string;
  /** Everything the proxy has logged so far. */
  log(): string;
  close(): Promise<void>;
}

interface Upstream {
  sandbox: RunningSandbox;
  slow: SlowMarketing;
  clientId: string;
  otherClientId: string;
  dataDir: string;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-contract-'));
  const sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir, apiKey: CONTRACT_API_KEY });
  const slow = await startSlowMarketing(sandbox.marketingUrl, 0);
  const clientId = (await sandbox.registerApp({ name: 'Contract shop', redirectUris: [REDIRECT_URI] })).app_id;
  const otherClientId = (await sandbox.registerApp({ name: 'Another shop', redirectUris: [REDIRECT_URI] })).app_id;
  return {
    sandbox,
    slow,
    clientId,
    otherClientId,
    dataDir,
    async close() {
      await slow.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startNodeTarget(): Promise<ProxyTarget> {
  const upstream = await startUpstream();
  const lines: string[] = [];
  const server = createServer(
    toNodeHandler(
      createMarketingProxy({
        upstreamUrl: upstream.slow.url,
        apiKey: CONTRACT_API_KEY,
        allowedOrigins: [LISTED_ORIGIN],
        connectUrl: upstream.sandbox.connectUrl,
        clientId: upstream.clientId,
        requireSignin: [MEMBERS_CAMPAIGN],
        timeoutMs: TIMEOUT_MS,
        logger: (entry) => lines.push(JSON.stringify(entry)),
      }),
    ),
  );
  const origin = await listen(server);
  return {
    name: 'node',
    endpoint: `${origin}/api/marketing`,
    origin,
    ...upstream,
    log: () => lines.join('\n'),
    async close() {
      await closeServer(server);
      await upstream.close();
    },
  };
}

export async function startWordPressTarget(): Promise<ProxyTarget> {
  const [upstream, wp] = await Promise.all([startUpstream(), startWordPress()]);
  try {
    installPluginFromSource(wp);
    // The suite's short upstream timeout, as a host sets it.
    writeFileSync(
      join(wp.folder, 'site/wp-content/mu-plugins/contract-timeout.php'),
      `<?php\nadd_filter( 'loyalty_widgets_proxy_timeout_ms', static fn() => ${TIMEOUT_MS} );\n`,
    );
    wp.php(
      `update_option( 'loyalty_widgets_settings', ${phpArray({
        authority: upstream.sandbox.connectUrl,
        client_id: upstream.clientId,
        marketing_url: upstream.slow.url,
        members_campaigns: MEMBERS_CAMPAIGN,
        proxy_origins: LISTED_ORIGIN,
      })} );
      update_option( 'loyalty_widgets_marketing_key', ${phpString(CONTRACT_API_KEY)} );`,
    );
    let log = '';
    return {
      name: 'wordpress',
      endpoint: `${wp.url}/?rest_route=/loyalty-widgets/v1/marketing`,
      origin: wp.url,
      ...upstream,
      log: () => (log += wp.takeLog()),
      async close() {
        await wp.close();
        await upstream.close();
      },
    };
  } catch (error) {
    await Promise.all([wp.close(), upstream.close()]);
    throw error;
  }
}
