/**
 * A WordPress with the plugin unpacked from the built zip and active (as an upload leaves it; the
 * upload form itself is plugin.test.ts's), the sandbox as Connect and Marketing, the merchant's proxy
 * on another origin, and Chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../support/e2e.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { createMarketingProxy } from '../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../src/proxy/node.ts';
import { installPluginFromZip } from './install.ts';
import { startWordPress, type RunningWordPress } from './wordpress.ts';

export const ZIP = 'build/wordpress/loyalty-widgets.zip';

export interface Shop {
  wp: RunningWordPress;
  sandbox: RunningSandbox;
  browser: Browser;
  /** The proxy's endpoint, on another origin than the site's. */
  proxyUrl: string;
  close(): Promise<void>;
}

export async function startShop(): Promise<Shop> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-wp-sandbox-'));
  const [wp, sandbox, browser] = await Promise.all([
    startWordPress(),
    startSandbox({ connectPort: 0, marketingPort: 0, dataDir }),
    launchChromium(),
  ]);
  await installPluginFromZip(wp, ZIP);
  const proxy = createServer(
    toNodeHandler(
      createMarketingProxy({
        upstreamUrl: sandbox.marketingUrl,
        apiKey: sandbox.apiKey,
        allowedOrigins: [wp.url],
        logger: () => {},
      }),
    ),
  );
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    wp,
    sandbox,
    browser,
    proxyUrl: `http://localhost:${(proxy.address() as { port: number }).port}/api/marketing`,
    async close() {
      await browser.close();
      await new Promise((resolve) => proxy.close(resolve));
      await Promise.all([wp.close(), sandbox.close()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
