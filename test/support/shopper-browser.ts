/**
 * A shopper's browser in Chromium, Firefox or WebKit for the end-to-end journeys, with the few things a
 * shopper does: open a page, click where an element is (a real pointer click, so popups open with
 * user activation), press keys, type, follow a popup. Firefox is driven over WebDriver BiDi by
 * puppeteer-core, and so is Chromium for journeys written once for every engine; WebKitGTK's
 * MiniBrowser over classic WebDriver by webdriverio (playwright-core cannot drive Debian's builds of
 * Firefox or WebKit). Page state is read with expressions evaluated in the page.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { remote } from 'webdriverio';
import { CHROMIUM_ARGS, enginePaths, startWebKitDriver, webKitCapabilities, type Engine } from './engines.ts';

export interface ShopperWindow {
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** The browser's Back button. */
  back(): Promise<void>;
  /** Evaluates a JavaScript expression in the page; the result must be JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /** Clicks the middle of the element the expression returns, with the pointer. */
  click(elementExpression: string): Promise<void>;
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface ShopperBrowser {
  engine: Engine;
  page: ShopperWindow;
  /** Runs `action` (which opens a window) and returns the window it opened. */
  popup(action: () => Promise<void>): Promise<ShopperWindow & { isClosed(): Promise<boolean> }>;
  /** Opens another window (a second tab of the same shopper) at this address. */
  openWindow(url: string): Promise<ShopperWindow>;
  /** Forgets every cookie (Connect's sign-in session among them), as a new private window would. */
  clearCookies(): Promise<void>;
  /** The first frame of the main window whose page is at this origin: evaluated in, and clicked in with the pointer. */
  frame(origin: string): Promise<ShopperWindow>;
  close(): Promise<void>;
}

/** Polls an expression in the window until it is truthy. */
export async function waitFor(
  window: ShopperWindow,
  expression: string,
  what: string,
  timeout = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      if (await window.evaluate<boolean>(`Boolean(${expression})`)) return;
    } catch {
      // the page is navigating
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Types `text` into the form field `id` as a shopper does (a click, then keys), and checks it is
 * there: a click that landed while the page was still being laid out typed nowhere, and is tried once
 * more.
 */
async function typeInto(window: ShopperWindow, id: string, text: string): Promise<void> {
  const field = `document.getElementById(${JSON.stringify(id)})`;
  for (let attempt = 1; ; attempt++) {
    await window.click(field);
    await window.type(text);
    if (await window.evaluate<boolean>(`${field}.value === ${JSON.stringify(text)}`)) return;
    if (attempt === 2) throw new Error(`Typing into #${id} did not fill it in`);
    await window.evaluate(`(${field}.value = '', true)`);
  }
}

/** Fills the sandbox Connect's sign-in form as the seeded shopper `demo`, then answers its consent page. */
export async function signInAtConnect(popup: ShopperWindow, decision: 'allow' | 'cancel'): Promise<void> {
  // Loaded, so that a click lands where the field is drawn.
  await waitFor(popup, `document.readyState === 'complete' && document.getElementById('username')`, 'the sign-in form');
  await typeInto(popup, 'username', 'demo');
  await typeInto(popup, 'password', 'demo');
  await popup.click(`document.querySelector('form button[type="submit"]')`);
  await waitFor(popup, `document.querySelector('button[value="${decision}"]')`, 'the consent page');
  await popup.click(`document.querySelector('button[value="${decision}"]')`);
}

/** A page of Connect: its sign-in form, or (when it remembers the shopper) its consent page. */
export const CONNECT_PAGE = `document.getElementById('password') || document.querySelector('button[value="allow"]')`;

/** Signs `demo` in at whichever page Connect shows: the password form first when it asks for it. */
export async function allowAsDemo(window: ShopperWindow): Promise<void> {
  await waitFor(window, CONNECT_PAGE, 'a page of Connect');
  if (await window.evaluate<boolean>(`Boolean(document.getElementById('password'))`))
    await signInAtConnect(window, 'allow');
  else await window.click(`document.querySelector('button[value="allow"]')`);
}

/** Where the inside of the first frame at this origin starts in its window's viewport, and its index among the frames. */
const frameAt = (origin: string): string => `(() => {
  const frames = [...document.querySelectorAll('iframe')];
  const index = frames.findIndex((frame) => frame.src.startsWith(${JSON.stringify(`${origin}/`)}));
  if (index < 0) throw new Error('no frame at ${origin}');
  const box = frames[index].getBoundingClientRect();
  return [index, box.left + frames[index].clientLeft, box.top + frames[index].clientTop];
})()`;

/**
 * A frame of `top` as a window of its own: expressions are evaluated in the frame, and a click goes
 * with the pointer to the element's centre, measured in the frame and moved by where the frame sits.
 */
async function framed(
  top: ShopperWindow & { clickAt(x: number, y: number): Promise<void> },
  origin: string,
  evaluateIn: (index: number, expression: string) => Promise<unknown>,
): Promise<ShopperWindow> {
  const [index] = await top.evaluate<[number, number, number]>(frameAt(origin));
  const evaluate = <T>(expression: string) => evaluateIn(index, expression) as Promise<T>;
  return {
    ...top,
    evaluate,
    async click(elementExpression) {
      const [x, y] = await evaluate<[number, number]>(centreOf(elementExpression));
      const [, left, topEdge] = await top.evaluate<[number, number, number]>(frameAt(origin));
      await top.clickAt(left + x, topEdge + y);
    },
  };
}

/** The element's centre in viewport coordinates, after scrolling it into view. */
const centreOf = (elementExpression: string): string => `(() => {
  const element = (${elementExpression});
  if (!element) throw new Error('no element for the click');
  element.scrollIntoView({ block: 'center', inline: 'nearest' });
  const box = element.getBoundingClientRect();
  return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];
})()`;

function puppeteerWindow(page: PuppeteerPage): ShopperWindow & { clickAt(x: number, y: number): Promise<void> } {
  return {
    clickAt: (x, y) => page.mouse.click(x, y),
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    // page.goBack() waits for a load that a page restored from the back/forward cache never sends.
    back: async () => void (await page.evaluate('history.back()')),
    evaluate: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
    async click(elementExpression) {
      const [x, y] = (await page.evaluate(centreOf(elementExpression))) as [number, number];
      await page.mouse.click(x, y);
    },
    // Keys go to the window in front, which a popup may still be.
    press: async (key) => {
      await page.bringToFront();
      await page.keyboard.press(key as never);
    },
    type: async (text) => {
      await page.bringToFront();
      await page.keyboard.type(text);
    },
    close: () => page.close(),
  };
}

export interface ShopperBrowserOptions {
  /**
   * The browser refuses a frame of another site its storage, as a shopper's may: Chromium with
   * third-party cookies blocked and storage partitioning off (sessionStorage, localStorage and Web Locks
   * throw SecurityError), Firefox rejecting third-party cookies (localStorage and Web Locks throw).
   * WebKit has no such switch: it partitions such a frame's storage.
   */
  blockThirdPartyStorage?: boolean;
}

async function launchPuppeteer(
  engine: 'chromium' | 'firefox',
  { blockThirdPartyStorage = false }: ShopperBrowserOptions,
): Promise<ShopperBrowser> {
  const browser: PuppeteerBrowser = await (engine === 'firefox'
    ? puppeteer.launch({
        browser: 'firefox',
        executablePath: enginePaths().firefox[0],
        headless: true,
        // Puppeteer turns the popup blocker off; a shopper's Firefox has it on.
        extraPrefsFirefox: {
          'dom.disable_open_during_load': true,
          ...(blockThirdPartyStorage && { 'network.cookie.cookieBehavior': 1 }),
        },
      })
    : puppeteer.launch({
        browser: 'chrome',
        executablePath: enginePaths().chromium[0],
        args: [
          ...CHROMIUM_ARGS,
          ...(blockThirdPartyStorage
            ? ['--test-third-party-cookie-phaseout', '--disable-features=ThirdPartyStoragePartitioning']
            : []),
        ],
      }));
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  return {
    engine,
    page: puppeteerWindow(page),
    async popup(action) {
      // Any new window counts: one opened by a frame of another site is not announced as this page's
      // popup, and Firefox may hand it out anew after it navigates, so it is looked up at each use.
      const known = new Set(await browser.pages());
      const newest = async (): Promise<PuppeteerPage | undefined> =>
        (await browser.pages()).filter((candidate) => !known.has(candidate)).at(-1);
      await action();
      for (const deadline = Date.now() + 10_000; !(await newest()) && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const current = async (): Promise<ShopperWindow> => {
        const popup = await newest();
        if (!popup) throw new Error('the popup is closed');
        return puppeteerWindow(popup);
      };
      return {
        goto: async (url) => (await current()).goto(url),
        reload: async () => (await current()).reload(),
        back: async () => (await current()).back(),
        evaluate: async <T>(expression: string) => (await current()).evaluate<T>(expression),
        click: async (expression) => (await current()).click(expression),
        press: async (key) => (await current()).press(key),
        type: async (text) => (await current()).type(text),
        close: async () => (await current()).close(),
        isClosed: async () => (await newest()) === undefined,
      };
    },
    async openWindow(url) {
      const other = await browser.newPage();
      await other.goto(url);
      return puppeteerWindow(other);
    },
    clearCookies: async () => browser.deleteCookie(...(await browser.cookies())),
    frame: (origin) =>
      framed(puppeteerWindow(page), origin, (_index, expression) => {
        const frame = page.frames().find((candidate) => candidate.url().startsWith(`${origin}/`));
        if (!frame) throw new Error(`no frame at ${origin}`);
        return frame.evaluate(expression);
      }),
    close: () => browser.close(),
  };
}

async function launchWebKit(): Promise<ShopperBrowser> {
  const { url, stop } = await startWebKitDriver();
  const { hostname, port } = new URL(url);
  const driver = await remote({
    hostname,
    port: Number(port),
    path: '/',
    logLevel: 'error',
    capabilities: webKitCapabilities(),
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  await driver.setWindowSize(1100, 900);
  const main = await driver.getWindowHandle();
  let current = main;
  const within = async <T>(handle: string, run: () => Promise<T>): Promise<T> => {
    if (current !== handle) {
      await driver.switchToWindow(handle);
      current = handle;
    }
    return run();
  };
  const clickAt = async (x: number, y: number): Promise<void> => {
    await driver.performActions([
      {
        type: 'pointer',
        id: 'mouse',
        parameters: { pointerType: 'mouse' },
        actions: [
          { type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerUp', button: 0 },
        ],
      },
    ]);
    await driver.releaseActions();
  };
  const window = (handle: string): ShopperWindow & { clickAt(x: number, y: number): Promise<void> } => ({
    clickAt: (x, y) => within(handle, () => clickAt(x, y)),
    goto: (url) => within(handle, () => driver.navigateTo(url).then(() => undefined)),
    reload: () => within(handle, () => driver.refresh()),
    back: () => within(handle, () => driver.back()),
    evaluate: <T>(expression: string) => within(handle, () => driver.execute(`return (${expression});`) as Promise<T>),
    click: (elementExpression) =>
      within(handle, async () => {
        const [x, y] = (await driver.execute(`return ${centreOf(elementExpression)};`)) as [number, number];
        await clickAt(x, y);
      }),
    press: (key) => within(handle, () => driver.keys(key)),
    type: (text) => within(handle, () => driver.keys(text.split(''))),
    close: () =>
      within(handle, async () => {
        await driver.closeWindow();
        await driver.switchToWindow(main);
        current = main;
      }),
  });
  return {
    engine: 'webkit',
    page: window(main),
    async popup(action) {
      const before = new Set(await driver.getWindowHandles());
      await action();
      let handle: string | undefined;
      const deadline = Date.now() + 10_000;
      while (!handle && Date.now() < deadline) {
        handle = (await driver.getWindowHandles()).find((candidate) => !before.has(candidate));
        if (!handle) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!handle) throw new Error('no popup opened');
      const opened = handle;
      return { ...window(opened), isClosed: async () => !(await driver.getWindowHandles()).includes(opened) };
    },
    async openWindow(url) {
      const { handle } = await within(main, () => driver.createWindow('tab'));
      const other = window(handle);
      await other.goto(url);
      return other;
    },
    // Cookies are per host, not per port: this clears Connect's on localhost too.
    clearCookies: () => within(main, () => driver.deleteAllCookies()),
    frame: (origin) =>
      framed(window(main), origin, (index, expression) =>
        within(main, async () => {
          const frames = await driver.$$('iframe').getElements();
          await driver.switchFrame(frames[index]!);
          try {
            return await driver.execute(`return (${expression});`);
          } finally {
            await driver.switchFrame(null);
          }
        }),
      ),
    async close() {
      await driver.deleteSession().catch(() => undefined);
      await stop();
    },
  };
}

export function launchShopperBrowser(engine: Engine, options: ShopperBrowserOptions = {}): Promise<ShopperBrowser> {
  return engine === 'webkit' ? launchWebKit() : launchPuppeteer(engine, options);
}

/**
 * The shopper's browser in `engine` for the calling describe block: launched before its tests, closed
 * after. `missing` lists the engine's programs that are not installed, none of which may be in CI.
 */
export function useShopperBrowser(engine: Engine, missing: readonly string[]): ShopperBrowser {
  const browser = {} as ShopperBrowser;
  let launched: ShopperBrowser | undefined;
  before(async () => {
    assert.deepEqual(missing, [], `${engine} must be installed in CI`);
    launched = await launchShopperBrowser(engine);
    Object.assign(browser, launched);
  });
  after(() => launched?.close());
  return browser;
}
