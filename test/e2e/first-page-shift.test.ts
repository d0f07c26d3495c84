/**
 * Nothing on a widget's page moves, from its first paint until the widgets have taken over and
 * settled, in Chromium, Firefox and WebKit: today's article page (the script tag), the same with the
 * preload line, the same printed by the server with its first page inside, a printed carousel and
 * coupon, a printed directory, and the WordPress post with a campaigns block (whatever the plugin
 * prints for it). Firefox and WebKit report no layout-shift entries, so a recorder the page runs first
 * measures what would shift: at every frame, the box of each widget (its mount or block, or the
 * element) and where each of the page's own elements after it sits. A change between two painted
 * frames is a shift. The elements' code is held back a moment, so the frames before the take-over are
 * painted and recorded too. Each page is shown in two font families: nothing here expects a size.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { useE2eStack } from '../support/e2e.ts';
import { ENGINES, missingPrograms } from '../support/engines.ts';
import { FONT_FAMILIES } from '../support/font-families.ts';
import { useShopperBrowser, waitFor, type ShopperWindow } from '../support/shopper-browser.ts';
import { articleShapes } from '../support/article-pages.ts';
import { CHROMIUM_LAYOUT_SHIFT } from '../support/layout-shift.ts';
import { startWordPressArticle, type WordPressArticle } from '../wordpress/support/article.ts';
import { wordPressSkip } from '../wordpress/support/wordpress.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const wordPress = wordPressSkip();

/** How long the elements' code is held back: frames are painted before it runs, whatever the engine. */
const CODE_DELAY_MS = 600;

/**
 * Runs first in the page's <head>. The widgets are the outermost of their blocks, mounts and
 * elements; a widget's box is its position and size, a following element's its position, in the
 * document's coordinates (a scroll is no shift). A page opened with `#font=<family>` is drawn in that
 * family. Plain JavaScript, as the page runs it.
 */
const RECORDER = `(() => {
  const family = new URLSearchParams(location.hash.slice(1)).get('font');
  if (family) {
    const rule = document.createElement('style');
    rule.textContent = '*, ::before, ::after { font-family: ' + JSON.stringify(family) + ' !important; }';
    document.head.append(rule);
  }
  const WIDGET = '[class*="wp-block-loyalty-widgets-"], [data-loyalty-widget], campaign-carousel, coupon-claim, business-directory';
  const ELEMENT = 'campaign-carousel, coupon-claim, business-directory';
  const record = { shifts: [], framesBefore: 0, framesAfter: 0, printedFrames: 0 };
  const names = new WeakMap();
  const name = (element, role) => {
    if (!names.has(element)) names.set(element, role + ' ' + element.localName + (element.id ? '#' + element.id : '') + ' (' + (names.count = (names.count || 0) + 1) + ')');
    return names.get(element);
  };
  const widgets = () => [...document.querySelectorAll(WIDGET)].filter((widget) => !widget.parentElement?.closest(WIDGET));
  const shows = (widget) => {
    const element = widget.matches(ELEMENT) ? widget : widget.querySelector(ELEMENT);
    return Boolean(element?.shadowRoot?.querySelector('[part~="title"], [part~="name"]'));
  };
  const images = (root) => [...root.querySelectorAll('img')].concat(
    ...[...root.querySelectorAll(ELEMENT)].filter((element) => element.shadowRoot).map((element) => images(element.shadowRoot)),
  );
  record.takenOver = () => widgets().length > 0 && widgets().every(shows);
  record.imagesLoaded = () => images(document).every((image) => image.complete);
  window.__layoutRecord = record;
  const box = (element) => {
    const rect = element.getBoundingClientRect();
    return [rect.left + scrollX, rect.top + scrollY, rect.width, rect.height].map((value) => Math.round(value * 10) / 10);
  };
  let previous = new Map();
  const frame = () => {
    const current = new Map();
    const found = widgets();
    for (const widget of found) {
      current.set(name(widget, 'widget'), box(widget));
      for (let next = widget.nextElementSibling; next; next = next.nextElementSibling) {
        if (!next.matches('script, style, template, link, meta')) current.set(name(next, 'after'), box(next).slice(0, 2));
      }
    }
    for (const [what, now] of current) {
      const was = previous.get(what);
      if (was && now.some((value, index) => Math.abs(value - was[index]) > 0.5)) {
        record.shifts.push({ what, at: Math.round(performance.now()), from: was, to: now });
      }
    }
    previous = current;
    if (found.length) found.every(shows) ? record.framesAfter++ : record.framesBefore++;
    // A frame that showed a first page printed inside a widget (by its server, or from a preload).
    const printedTitle = document.querySelector('[data-loyalty-first-page] :is([data-field="title"], [data-field="name"])');
    if (printedTitle && printedTitle.getBoundingClientRect().height > 0) record.printedFrames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

const RECORDER_TAG = `<script>${RECORDER}</script>`;
const withRecorder = (html: string) => html.replace(/<head[^>]*>/i, (head) => `${head}\n    ${RECORDER_TAG}`);

/** The static site's pages, by what the tests call them. */
const STATIC_PAGES = {
  "today's page (script tag)": '/shift-article.html',
  'with the preload line': '/shift-article-preload.html',
  'printed by the server (Node)': '/shift-article-printed.html',
  'a carousel and a coupon printed by the server (Node)': '/shift-first-page.html',
  'a directory printed by the server (Node)': '/shift-directory.html',
  'a carousel and a coupon printed from preloads': '/shift-preloads.html',
} as const;

/** first-page.html's carousel and coupon as bare elements whose first pages the head preloads, with the printer's line. */
function preloadedElements(firstPage: string): string {
  const preloads = ['operation=campaigns&amp;limit=4', 'operation=campaign&amp;id=camp-harbor-beans']
    .map((query) => `<link rel="preload" as="fetch" crossorigin href="/api/marketing?${query}" />`)
    .join('');
  return firstPage
    .replace(
      '<script type="module"',
      `${preloads}<script type="module" async src="/dist/first-page.js"></script><script type="module"`,
    )
    .replace('<!-- first-page campaign-carousel {"limit":4} -->', '<campaign-carousel limit="4"></campaign-carousel>')
    .replace(
      '<!-- first-page coupon-claim {"campaign-id":"camp-harbor-beans"} -->',
      '<coupon-claim campaign-id="camp-harbor-beans"></coupon-claim>',
    )
    .replace(/\s*<!-- first-page business-directory .*? -->/, '');
}

async function staticPages(): Promise<Map<string, string>> {
  const article = await readFile('test/e2e/fixtures/article.html', 'utf8');
  const { preload, printed } = articleShapes(article);
  const firstPage = await readFile('test/e2e/fixtures/first-page.html', 'utf8');
  const directory = /\s*<!-- first-page business-directory .*? -->/;
  if (!directory.test(firstPage)) throw new Error('first-page.html no longer has its printed directory');
  const pages = new Map<string, string>([
    [STATIC_PAGES["today's page (script tag)"], article],
    [STATIC_PAGES['with the preload line'], preload],
    [STATIC_PAGES['printed by the server (Node)'], printed],
    [STATIC_PAGES['a carousel and a coupon printed by the server (Node)'], firstPage.replace(directory, '')],
    [
      STATIC_PAGES['a directory printed by the server (Node)'],
      firstPage.replace(/<!-- first-page (campaign-carousel|coupon-claim) .*? -->/g, ''),
    ],
  ]);
  const preloads = preloadedElements(firstPage);
  if (preloads.includes('<!-- first-page'))
    throw new Error('first-page.html no longer has the widgets the preload page changes');
  pages.set(STATIC_PAGES['a carousel and a coupon printed from preloads'], preloads);
  for (const [path, html] of pages) pages.set(path, withRecorder(html));
  return pages;
}

/**
 * The static site behind a host that answers every script of dist/ CODE_DELAY_MS late (a slow
 * network for the code only): the page, its stylesheet and its data come at once. It forwards the
 * browser's Host, so the site's proxy sees the page's own origin.
 */
async function startCodeDelay(site: string): Promise<{ origin: string; close(): Promise<void> }> {
  const target = new URL(site);
  const server: Server = createServer((incoming, answer) => {
    const forward = () => {
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (response) => {
          // Each load fetches the code anew (and waits for it): nothing kept from the page before.
          const { etag: _etag, 'last-modified': _modified, ...headers } = response.headers;
          answer.writeHead(response.statusCode ?? 502, { ...headers, 'cache-control': 'no-store' });
          response.pipe(answer);
        },
      );
      upstream.on('error', () => answer.destroy());
      incoming.pipe(upstream);
    };
    if (/^\/dist\/.*\.js(\?|$)/.test(incoming.url ?? '')) setTimeout(forward, CODE_DELAY_MS);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface LayoutRecord {
  shifts: { what: string; at: number; from: number[]; to: number[] }[];
  framesBefore: number;
  framesAfter: number;
  /** Frames that showed a printed first page's title. */
  printedFrames: number;
}

/** Opens the page in `family`, waits for its widgets to take over and settle, and returns what the recorder saw. */
async function record(window: ShopperWindow, url: string, family: string): Promise<LayoutRecord> {
  // A page of its own first: the same address with another fragment would not load again.
  await window.goto('about:blank');
  await window.goto(`${url}#font=${encodeURIComponent(family)}`);
  await waitFor(window, `window.__layoutRecord?.takenOver()`, 'the widgets show their own content', 20_000);
  await waitFor(window, `window.__layoutRecord.imagesLoaded()`, 'the images are loaded', 20_000);
  // Settled: a few more frames with everything in place.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return window.evaluate<LayoutRecord>(
    `(({ shifts, framesBefore, framesAfter, printedFrames }) => ({ shifts, framesBefore, framesAfter, printedFrames }))(window.__layoutRecord)`,
  );
}

/** The static site's pages, filled in before the tests run (the site reads them at each request). */
const sitePages = new Map<string, string>();

describe('no layout shift from first paint to settled, in every engine', () => {
  const stack = useE2eStack({ staticSites: { shop: { pages: sitePages } }, chromium: false });
  let delayed: Awaited<ReturnType<typeof startCodeDelay>>;
  let site: WordPressArticle | undefined;

  before(async () => {
    for (const [path, html] of await staticPages()) sitePages.set(path, html);
    delayed = await startCodeDelay(stack.sites.shop.origin);
    if (!wordPress) site = await startWordPressArticle(RECORDER_TAG);
  });
  after(async () => {
    await delayed?.close();
    await site?.close();
  });

  for (const engine of ENGINES) {
    const missing = missingPrograms(engine);
    describe(
      engine,
      { skip: missing.length > 0 && !inCi && `${engine} is not installed (${missing.join(', ')})` },
      () => {
        const browser = useShopperBrowser(engine, missing);

        /** `codeHeldBack`: the page's code comes late, so frames before the take-over must have been painted. */
        /** `printed`: the page shows a printed first page before its elements take over. */
        const assertNothingMoves = async (url: string, codeHeldBack: boolean, printed: boolean) => {
          for (const { family } of FONT_FAMILIES) {
            const seen = await record(browser.page, url, family);
            const moved = seen.shifts.map(
              ({ what, at, from, to }) => `${what} at ${at} ms: ${from.join()} -> ${to.join()}`,
            );
            assert.deepEqual(moved, [], `${family}: what moved (left, top, width, height)`);
            if (codeHeldBack)
              assert.ok(seen.framesBefore > 0, `${family}: frames painted before the elements' code ran`);
            if (printed) assert.ok(seen.printedFrames > 0, `${family}: frames painted with the printed first page`);
            assert.ok(seen.framesAfter > 0, `${family}: frames painted once the widgets took over`);
            if (engine === 'chromium') assert.equal(await browser.page.evaluate<number>(CHROMIUM_LAYOUT_SHIFT), 0);
          }
        };

        for (const [what, path] of Object.entries(STATIC_PAGES) as [keyof typeof STATIC_PAGES, string][])
          it(what, () => assertNothingMoves(`${delayed.origin}${path}`, true, what !== "today's page (script tag)"));

        it('the WordPress post with a campaigns block', { skip: wordPress }, () =>
          assertNothingMoves(site!.url, false, true),
        );
      },
    );
  }
});
