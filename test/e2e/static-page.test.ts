/**
 * The script tag on a plain static page, as a merchant pastes it: no build step, pasted twice,
 * nothing added to window, a strict Content-Security-Policy, and the sign-in code only once a shopper
 * shows the intent to sign in.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { saveScreenshot, signInOnPopup, useE2eStack } from '../support/e2e.ts';

const stack = useE2eStack({
  staticSites: { plain: {}, strict: { strictCsp: true } },
  app: { name: 'Static shop', redirectPaths: { plain: ['/dist/callback.html'], strict: ['/dist/callback.html'] } },
});

/** Opens a page, collecting console errors, uncaught exceptions and every URL it requested. */
async function open(url: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await stack.browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  return { page, errors, requests };
}

async function firstSlideTitle(page: Page): Promise<string> {
  const title = page.locator('campaign-carousel [part~="title"]').first();
  await title.waitFor({ state: 'visible', timeout: 15_000 });
  return (await title.textContent())?.trim() ?? '';
}

/** Whether a page's requests include the sign-in chunk (src/connect/client.ts: oidc-client-ts, jose). */
async function signInChunkFetched(): Promise<(requests: string[]) => boolean> {
  const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
  const signInChunk = manifest['src/connect/client.ts']?.file;
  assert.ok(signInChunk, 'the build has a separate chunk for src/connect/client.ts');
  return (requests) => requests.some((url) => new URL(url).pathname === `/dist/${signInChunk}`);
}

describe('the script tag on a static page', () => {
  it('works with no build step, loaded twice, and adds nothing to window but the elements', async () => {
    const { page, errors, requests } = await open(`${stack.sites.plain.origin}/plain.html`);
    assert.notEqual(await firstSlideTitle(page), '');
    await page.locator('loyalty-signin-button').getByRole('button').first().waitFor();
    const added = await page.evaluate(() => {
      const before = new Set((window as unknown as { __baselineGlobals: string[] }).__baselineGlobals);
      return Object.getOwnPropertyNames(window).filter((name) => !before.has(name) && name !== '__baselineGlobals');
    });
    assert.deepEqual(added, [], `globals added by the script: ${added.join(', ')}`);
    // Elements are defined when their tag is on the page; coupon-claim is not on this one.
    await page.locator('business-directory [part~="name"]').first().waitFor({ timeout: 15_000 });
    for (const tag of ['loyalty-signin-button', 'campaign-carousel', 'business-directory']) {
      assert.equal(await page.evaluate((t) => customElements.get(t) !== undefined, tag), true, `${tag} is defined`);
    }
    assert.deepEqual(errors, []);
    // The same version twice is no clash: the warning about another copy's elements is not even loaded.
    const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
    const warningFile = `/dist/${manifest['src/shared/defined-elsewhere.ts']!.file}`;
    assert.equal(
      requests.some((url) => new URL(url).pathname === warningFile),
      false,
      'the page fetched the warning about another copy',
    );
    await saveScreenshot(page, 'static-page');
    await page.close();
  });

  // The README's paste: without its stylesheet the space is held only when the module runs before the
  // first paint, which depends on the machine (see default-paste.test.ts for both orders).
  it('settles in one step: no layout shift as each element arrives', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { __shifts: number[] }).__shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${stack.sites.plain.origin}/plain.html`);
    await firstSlideTitle(page);
    await page.locator('business-directory [part~="name"]').first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts);
    const cls = shifts.reduce((sum, value) => sum + value, 0);
    assert.ok(cls < 0.01, `cumulative layout shift ${cls.toFixed(3)} (${shifts.length} shifts)`);
    await page.close();
  });

  it('shows each element as soon as it has rendered, not once the slowest has', async () => {
    const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
    const directory = manifest['src/elements/business-directory/index.ts']!.file;
    const page = await stack.browser.newPage();
    // The directory's code never arrives: the carousel beside it must not wait for it.
    await page.route(`**/dist/${directory}`, () => {});
    await page.goto(`${stack.sites.plain.origin}/plain.html`, { waitUntil: 'commit' });
    const title = page.locator('campaign-carousel [part~="title"]').first();
    await title.waitFor({ state: 'attached', timeout: 15_000 });
    const shown = await title.evaluate(
      (element) =>
        element.getBoundingClientRect().height > 0 &&
        element.checkVisibility({ visibilityProperty: true, opacityProperty: true }),
    );
    assert.equal(shown, true, 'the carousel is laid out but not shown');
    await page.close();
  });

  it('runs under a strict Content-Security-Policy without violations', async () => {
    const { page, errors } = await open(`${stack.sites.strict.origin}/strict-csp.html`);
    assert.notEqual(await firstSlideTitle(page), '');
    await page.locator('business-directory [part~="name"]').first().waitFor({ timeout: 15_000 });
    const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
    assert.deepEqual(violations, []);
    assert.deepEqual(errors, []);
    await saveScreenshot(page, 'strict-csp-page');
    await page.close();
  });

  it("fetches an element's shared files together with its own, not one round trip after it", async () => {
    const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<
      string,
      { file: string; imports?: string[] }
    >;
    const carousel = manifest['src/elements/campaign-carousel/index.ts']!;
    const firstLoad = new Set(manifest['src/index.ts']!.imports);
    const shared = carousel.imports!.filter((key) => !firstLoad.has(key)).map((key) => manifest[key]!.file);
    assert.ok(shared.length > 0, 'the carousel imports shared chunks beyond the first load');
    const page = await stack.browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    // The carousel's own file never arrives: whatever the page asks for meanwhile, it asked for ahead.
    await page.route(`**/dist/${carousel.file}`, () => {});
    const asked = (file: string) =>
      page
        .waitForRequest((request) => new URL(request.url()).pathname === `/dist/${file}`, { timeout: 15_000 })
        .then(
          () => true,
          () => false,
        );
    const carouselAsked = asked(carousel.file);
    const sharedAsked = shared.map(asked);
    await page.goto(`${stack.sites.plain.origin}/campaigns-only.html`);
    assert.ok(await carouselAsked, 'the carousel was asked for');
    const asks = await Promise.all(sharedAsked);
    assert.deepEqual(
      shared.filter((_, index) => !asks[index]),
      [],
      `shared files not asked for while the carousel is on its way (asked: ${requested.join(', ')})`,
    );
    await page.close();
  });

  it('fetches the mounts’ code only once the page has a mount, one given the attribute after every element is defined included', async () => {
    const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
    const mountsFile = `/dist/${manifest['src/mounts.ts']!.file}`;
    const { page, requests, errors } = await open(`${stack.sites.plain.origin}/plain.html`);
    await firstSlideTitle(page);
    await page.waitForLoadState('networkidle');
    const fetchedMounts = (): boolean => requests.some((url) => new URL(url).pathname === mountsFile);
    assert.equal(fetchedMounts(), false, 'a page with no mount fetched the mounts’ code');
    // The fourth element too: the script tag has every element defined, and still sees a mount come.
    await page.evaluate(async () => {
      document.body.insertAdjacentHTML('beforeend', '<coupon-claim campaign-id="camp-harbor-beans"></coupon-claim>');
      await customElements.whenDefined('coupon-claim');
    });
    await page.evaluate(() => {
      const div = document.createElement('div');
      div.id = 'later';
      div.setAttribute('data-limit', '2');
      document.body.append(div);
    });
    const mountsAsked = page.waitForRequest((request) => new URL(request.url()).pathname === mountsFile);
    await page.evaluate(() =>
      document.getElementById('later')!.setAttribute('data-loyalty-widget', 'business-directory'),
    );
    await mountsAsked;
    await page.locator('#later > business-directory[limit="2"] [part~="name"]').first().waitFor({ timeout: 15_000 });
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('takes a sign-in response out of the address at once, and fetches the code that handles it only then', async () => {
    const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
    const returnFile = `/dist/${manifest['src/sign-in-return.ts']!.file}`;
    const plain = await open(`${stack.sites.plain.origin}/plain.html`);
    await firstSlideTitle(plain.page);
    await plain.page.waitForLoadState('networkidle');
    assert.equal(
      plain.requests.some((url) => new URL(url).pathname === returnFile),
      false,
      'a page with no sign-in response fetched the code that handles one',
    );
    await plain.page.close();

    // A response nobody here asked for, the code that handles it held back: the address is clean already.
    const page = await stack.browser.newPage();
    let release: () => void = () => {};
    const releasing = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${returnFile}`, async (route) => {
      await releasing;
      await route.continue();
    });
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === returnFile);
    await page.goto(`${stack.sites.plain.origin}/plain.html#access_token=leaked&state=made-up`, {
      waitUntil: 'commit',
    });
    await asked;
    assert.equal(await page.evaluate(() => location.href), `${stack.sites.plain.origin}/plain.html`);
    release();
    // Not a popup of a waiting opener: the page starts as usual.
    assert.notEqual(await firstSlideTitle(page), '');
    await page.close();
  });

  it('fetches the sign-in chunk only on intent: never without a button, and not at load with one', async () => {
    const fetchedChunk = await signInChunkFetched();
    const { page, requests } = await open(`${stack.sites.plain.origin}/campaigns-only.html`);
    await firstSlideTitle(page);
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    await page.waitForLoadState('networkidle');
    assert.equal(fetchedChunk(requests), false, 'campaign-only page loaded the sign-in chunk');
    await page.close();

    // A page with only the button, shown and idle: no chunk until the pointer reaches the button.
    const signInPage = await open(`${stack.sites.plain.origin}/signin-only.html`);
    const button = signInPage.page.locator('loyalty-signin-button').getByRole('button');
    await button.waitFor();
    await signInPage.page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    await signInPage.page.waitForLoadState('networkidle');
    assert.equal(fetchedChunk(signInPage.requests), false, 'the sign-in chunk was fetched with no intent');
    const fetched = signInPage.page.waitForRequest((request) => fetchedChunk([request.url()]));
    await button.hover();
    await fetched;
    await signInPage.page.close();
  });

  it('signs in through the popup on a first key press, the sign-in chunk not loaded before it', async () => {
    const { page, requests, errors } = await open(`${stack.sites.plain.origin}/signin-only.html`);
    const button = page.locator('loyalty-signin-button').getByRole('button');
    await button.waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal((await signInChunkFetched())(requests), false, 'the sign-in chunk before the key press');
    const popupOpened = page.waitForEvent('popup');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await signInOnPopup(await popupOpened);
    await page.locator('loyalty-signin-button').getByText('demo', { exact: false }).first().waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });
});
