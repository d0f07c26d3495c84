/**
 * End-to-end support: the whole product (sandbox + demo site + proxy) on free ports with a
 * throwaway data folder, and the system Chromium driven by playwright-core.
 */
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type RunningStack, type StackOptions } from '../../scripts/stack.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { startStaticSite, type StaticSite } from './static-site.ts';

export type DemoStack = RunningStack;

export async function startDemoStack(options: StackOptions = {}): Promise<DemoStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-e2e-'));
  const stack = await startStack({
    connectPort: 0,
    marketingPort: 0,
    demoPort: 0,
    dataDir,
    accessLog: false,
    ...options,
  });
  return {
    ...stack,
    async close() {
      await stack.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

const screenshotDir = 'test-results/screenshots';

/** Keeps a screenshot of the page as a test artifact in test-results/screenshots. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Signs the seeded shopper `demo` in through the page's sign-in button and Connect's popup. */
export async function signInThroughPopup(page: Page): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await page.locator('loyalty-signin-button').getByRole('button', { name: 'Sign in with your loyalty wallet' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Username').fill('demo');
  await popup.getByLabel('Password').fill('demo');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await popup.getByRole('button', { name: 'Allow', exact: true }).click();
  await popup.waitForEvent('close');
}

/** The demo stack and a Chromium, started before and stopped after the calling describe block. */
export function useDemoSite(options: StackOptions = {}): { stack: DemoStack; browser: Browser } {
  const site = {} as { stack: DemoStack; browser: Browser };
  before(async () => {
    site.stack = await startDemoStack(options);
    site.browser = await launchChromium();
  });
  after(async () => {
    await site.browser?.close();
    await site.stack?.close();
  });
  return site;
}

export interface StaticShop {
  sandbox: RunningSandbox;
  site: StaticSite;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * The sandbox, a merchant's static site on it with the fixture pages (placeholders filled in with
 * the sandbox's demo app) and the demo site's pages as deployed, and Chromium.
 */
export async function startStaticShop(): Promise<StaticShop> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-static-shop-'));
  const sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir });
  const site = await startStaticSite({
    upstreamUrl: sandbox.marketingUrl,
    apiKey: sandbox.apiKey,
    connectUrl: sandbox.connectUrl,
    replacements: { '%CONNECT_URL%': sandbox.connectUrl, '%CLIENT_ID%': sandbox.demoApp.app_id },
    demo: { clientId: sandbox.demoApp.app_id },
  });
  const browser = await launchChromium();
  return {
    sandbox,
    site,
    browser,
    async close() {
      await browser.close();
      await site.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
