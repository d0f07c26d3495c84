/**
 * End-to-end support: the one fixture every end-to-end suite starts. The product on free ports with a
 * throwaway data folder: the sandbox (Connect + Marketing), the demo merchant site served by vite with
 * the proxy mounted as `npm start` mounts it, merchant static sites (dist/ as uploaded, the proxy at
 * /api/marketing), and the system Chromium driven by playwright-core.
 */
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../../scripts/stack.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { CHROMIUM_ARGS } from './engines.ts';
import { startStaticSite, strictCsp, type StaticSite } from './static-site.ts';

/** A merchant's static site: the pages of test/e2e/fixtures, dist/ and the proxy. */
export interface StaticSiteSettings {
  /** Send the strict Content-Security-Policy (./static-site.ts) on every response. */
  strictCsp?: boolean;
  /** Also serve the demo site's pages under /demo/, as deployed. */
  demoPages?: boolean;
  /** Pages made while the site runs, by path (e.g. `/floor.html`), read at each request. */
  pages?: Map<string, string>;
  /** Served on `127.0.0.1` rather than `localhost`: another site, for a page framed across sites. */
  host?: '127.0.0.1';
}

export interface E2eStackOptions<Site extends string = never> {
  /** Sandbox settings, e.g. a short `tokenLifetimeSeconds`. */
  sandbox?: Omit<SandboxOptions, 'connectPort' | 'marketingPort' | 'dataDir'>;
  /** Serve the demo merchant site (demo/) with vite, as `npm start` does; its URL is `demoUrl`. */
  demoSite?: boolean;
  /** Static sites by name, e.g. `{ plain: {}, strict: { strictCsp: true } }`; see `sites`. */
  staticSites?: Record<Site, StaticSiteSettings>;
  /**
   * The app the static pages sign in with (their `%CLIENT_ID%`), registered at Connect once the sites
   * are up, with redirect URIs given as paths on each site. Default: the sandbox's demo app.
   */
  app?: { name: string; redirectPaths: Partial<Record<Site, string[]>> };
  /** Launch Chromium as `browser`; default true. */
  chromium?: boolean;
}

export interface E2eStack<Site extends string = never> {
  sandbox: RunningSandbox;
  connectUrl: string;
  marketingUrl: string;
  /** The demo site's URL, with `demoSite: true`. */
  demoUrl: string;
  /** The static sites, by the names given in `staticSites`. */
  sites: Record<Site, StaticSite>;
  /** The system Chromium, unless `chromium: false`. */
  browser: Browser;
  close(): Promise<void>;
}

/** Starts what `options` asks for; `close()` stops it all and removes the data folder. */
export async function startE2eStack<Site extends string = never>(
  options: E2eStackOptions<Site> = {},
): Promise<E2eStack<Site>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-e2e-'));
  const closers: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const stack = { sites: {} } as E2eStack<Site>;
  stack.close = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const ports = { connectPort: 0, marketingPort: 0, dataDir };
    if (options.demoSite) {
      const demo = await startStack({ ...options.sandbox, ...ports, demoPort: 0, accessLog: false });
      closers.push(() => demo.close());
      Object.assign(stack, { sandbox: demo.sandbox, demoUrl: demo.demoUrl });
    } else {
      const sandbox = await startSandbox({ ...options.sandbox, ...ports });
      closers.push(() => sandbox.close());
      Object.assign(stack, { sandbox, demoUrl: '' });
    }
    const { sandbox } = stack;
    stack.connectUrl = sandbox.connectUrl;
    stack.marketingUrl = sandbox.marketingUrl;
    await startStaticSites(stack, options, closers);
    if (options.chromium !== false) {
      stack.browser = await launchChromium();
      closers.push(() => stack.browser.close());
    }
    return stack;
  } catch (error) {
    await stack.close();
    throw error;
  }
}

async function startStaticSites<Site extends string>(
  stack: E2eStack<Site>,
  options: E2eStackOptions<Site>,
  closers: (() => Promise<void>)[],
): Promise<void> {
  const settings = Object.entries(options.staticSites ?? {}) as [Site, StaticSiteSettings][];
  if (settings.length === 0) return;
  await Promise.all(['dist/loyalty-widgets.js', 'dist/callback.html'].map((file) => access(file))).catch(() => {
    throw new Error('dist/ is missing: run `npm run build` (npm run test:e2e does) first');
  });
  const { sandbox } = stack;
  // Filled in once the app is registered: the sites read them on every request.
  const replacements: Record<string, string> = { '%CONNECT_URL%': sandbox.connectUrl };
  for (const [name, site] of settings) {
    stack.sites[name] = await startStaticSite({
      upstreamUrl: sandbox.marketingUrl,
      apiKey: sandbox.apiKey,
      connectUrl: sandbox.connectUrl,
      replacements,
      csp: site.strictCsp ? strictCsp(sandbox.connectUrl, new URL(sandbox.marketingUrl).origin) : undefined,
      demo: site.demoPages ? { clientId: sandbox.demoApp.app_id } : undefined,
      pages: site.pages,
      host: site.host,
    });
    closers.push(() => stack.sites[name].close());
  }
  const redirectPaths = Object.entries(options.app?.redirectPaths ?? {}) as [Site, string[]][];
  const app = options.app
    ? await sandbox.registerApp({
        name: options.app.name,
        redirectUris: redirectPaths.flatMap(([site, paths]) => paths.map((path) => stack.sites[site].origin + path)),
      })
    : sandbox.demoApp;
  replacements['%CLIENT_ID%'] = app.app_id;
}

/**
 * The end-to-end stack, started before and stopped after the calling describe block (or file). A
 * suite whose own `before` needs the stack calls both inside one describe block: Node 20 runs a
 * file's top-level `before` hooks side by side, not one after the other.
 */
export function useE2eStack<Site extends string = never>(options: E2eStackOptions<Site> = {}): E2eStack<Site> {
  const stack = {} as E2eStack<Site>;
  let running: E2eStack<Site> | undefined;
  before(async () => {
    running = await startE2eStack(options);
    Object.assign(stack, running);
  });
  after(() => running?.close());
  return stack;
}

/** The sandbox, the static site `site` with the fixture and demo pages, and Chromium (bench/page.ts). */
export async function startStaticShop(pages?: Map<string, string>): Promise<{
  sandbox: RunningSandbox;
  site: StaticSite;
  browser: Browser;
  close(): Promise<void>;
}> {
  const stack = await startE2eStack({ staticSites: { site: { demoPages: true, pages } } });
  return { sandbox: stack.sandbox, site: stack.sites.site, browser: stack.browser, close: stack.close };
}

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
  await signInOnPopup(await popupOpened);
}

/** Signs the seeded shopper `demo` in on Connect's popup, however it was opened, and waits for it to close. */
export async function signInOnPopup(popup: Page): Promise<void> {
  await popup.getByLabel('Username').fill('demo');
  await popup.getByLabel('Password').fill('demo');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await popup.getByRole('button', { name: 'Allow', exact: true }).click();
  await popup.waitForEvent('close');
}
