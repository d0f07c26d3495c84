/**
 * A carousel page against its physical floor, in Chromium throttled as Lighthouse's mobile preset
 * throttles (CPU 4x slower, 150 ms round trips, 1.6 Mbps down, 750 kbps up): the article page with
 * the README's paste and one `<campaign-carousel>` (today's page), the same with the README's preload
 * line for its first page, the same printed by the server with its first page inside
 * (renderFirstPage), and the same article with the same campaigns as static HTML (the titles, and the
 * images with the very `<img>` attributes the carousel rendered) and no script. Median over cold loads
 * of the time until the campaign titles are painted and until the first campaign image is, each page's
 * ratio to the floor, and its layout shift once the element has taken over; then when today's page's
 * HTML, script tag, first page of data and code had arrived, against the floor's titles.
 */
import type { Browser, Page } from 'playwright-core';
import { startStaticShop } from '../test/support/e2e.ts';
import { median } from './page.ts';

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 5);
const THROTTLING = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
};

interface PaintTimes {
  titlesMs: number;
  imageMs: number;
  /** Cumulative layout shift once the carousel shows its campaigns (0 for the floor). */
  cls: number;
}

/** The pages measured against the floor, by what the bench prints for them. */
const WIDGET_PAGES = {
  "today's page (script tag)": '/article.html',
  'script tag with the preload line': '/article-preload.html',
  'printed by the server (Node)': '/article-printed.html',
} as const;
type WidgetPage = keyof typeof WIDGET_PAGES;

/** The article with the README's preload line, and the article printed with the carousel's first page. */
async function widgetPages(origin: string, pages: Map<string, string>): Promise<void> {
  const article = await (await fetch(`${origin}/article.html`)).text();
  const carousel = /<campaign-carousel heading-level="3" limit="4"><\/campaign-carousel>/;
  if (!carousel.test(article)) throw new Error('article.html no longer has the carousel the bench prints');
  pages.set(
    '/article-preload.html',
    article.replace(
      '<script type="module"',
      '<link rel="preload" as="fetch" crossorigin href="/api/marketing?operation=campaigns&amp;limit=4" />\n    <script type="module"',
    ),
  );
  pages.set(
    '/article-printed.html',
    article.replace(carousel, '<!-- first-page campaign-carousel {"heading-level":3,"limit":4} -->'),
  );
}

/**
 * When each thing the titles wait for had arrived on the widget page (ms from the navigation's start):
 * what no rendering on the page itself can come before.
 */
interface Arrivals {
  /** The page's HTML. */
  htmlMs: number;
  /** The script tag, `loyalty-widgets.js`. */
  scriptTagMs: number;
  /** The carousel's first page of data (`POST …/api/marketing`). */
  dataMs: number;
  /** The last file of the carousel's code. */
  codeMs: number;
}

export interface FloorFigures {
  widget: PaintTimes & Arrivals;
  pages: Record<WidgetPage, PaintTimes & Arrivals>;
  floor: PaintTimes & Pick<Arrivals, 'htmlMs'>;
  runs: number;
}

/** The article page's carousel as static HTML: its slides' titles and images, nothing else of it. */
async function floorPage(browser: Browser, origin: string): Promise<string> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${origin}/article.html`);
  await page.locator('campaign-carousel [part~="image"]').first().waitFor({ state: 'attached', timeout: 20_000 });
  const slides = await page.evaluate(() =>
    [...document.querySelector('campaign-carousel')!.shadowRoot!.querySelectorAll('[part~="slide"]')].map(
      (slide) =>
        `<li class="slide">${slide.querySelector('[part~="image"]')?.outerHTML ?? ''}<h3 class="title">${slide.querySelector('[part~="title"]')?.textContent?.trim() ?? ''}</h3></li>`,
    ),
  );
  const article = await page.evaluate(() => document.documentElement.outerHTML);
  await page.close();
  const list = `<ul class="slides">${slides.join('')}</ul>`;
  const style =
    '<style>.slides{display:flex;gap:1rem;overflow-x:auto;padding:0;list-style:none}.slide{flex:0 0 min(85%,20rem)}.slide img{display:block;inline-size:100%;block-size:auto;aspect-ratio:16/9}</style>';
  return `<!doctype html>\n${article
    .replace(/<link rel="stylesheet" href="\/dist\/[^>]*>/, style)
    .replace(/<script type="module"[^>]*><\/script>/, '')
    // What the script tag added to the head while it ran: the floor loads no code.
    .replaceAll(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<campaign-carousel[\s\S]*?<\/campaign-carousel>/, list)}`;
}

/**
 * When the first title and the first image are painted, measured the same way on both pages: checked
 * at each frame, what is laid out and visible at a frame's start is painted in it. Plain JavaScript,
 * as the page runs it (the TypeScript loader would add helpers of its own to a function).
 */
const PAINT_TIMES = `new Promise((resolve) => {
  const deep = DEEP;
  let titlesMs = 0;
  // The carousel's own, or before it takes over, the first page its server printed.
  const find = (part, printed, plain) =>
    deep
      ? document.querySelector('campaign-carousel')?.shadowRoot?.querySelector(part) ?? document.querySelector(printed)
      : document.querySelector(plain);
  const painted = (element) =>
    !!element &&
    element.getBoundingClientRect().height > 0 &&
    element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const frame = (now) => {
    const title = find('[part~="title"]', '[data-loyalty-first-page] [data-field="title"]', '.title');
    const image = find('[part~="image"]', '[data-loyalty-first-page] img', 'img');
    if (!titlesMs && painted(title)) titlesMs = now;
    if (titlesMs && image?.complete && image.naturalWidth > 0 && painted(image)) return resolve({ titlesMs, imageMs: now });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

/** The page's layout shifts from its start, summed as CLS sums them. */
const LAYOUT_SHIFT = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    resolve(list.getEntries().filter((entry) => !entry.hadRecentInput).reduce((sum, entry) => sum + entry.value, 0));
  }).observe({ type: 'layout-shift', buffered: true });
  setTimeout(() => resolve(0), 1000);
})`;

async function timings(page: Page, deep: boolean): Promise<PaintTimes> {
  const times = (await page.evaluate(PAINT_TIMES.replace('DEEP', String(deep)))) as Omit<PaintTimes, 'cls'>;
  // Once the carousel has taken over whatever was there before it, and the page has settled.
  if (deep) await page.locator('campaign-carousel [part~="title"]').first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500);
  return { ...times, cls: (await page.evaluate(LAYOUT_SHIFT)) as number };
}

/** From the page's Resource Timing entries, read once its titles are painted. */
const ARRIVALS = `(() => {
  const [navigation] = performance.getEntriesByType('navigation');
  const resources = performance.getEntriesByType('resource');
  const end = (test) => Math.max(0, ...resources.filter((entry) => test(new URL(entry.name))).map((entry) => entry.responseEnd));
  return {
    htmlMs: navigation ? navigation.responseEnd : 0,
    scriptTagMs: end((url) => url.pathname.endsWith('/loyalty-widgets.js')),
    dataMs: end((url) => url.pathname.endsWith('/api/marketing') && !url.search.includes('nextToken')),
    codeMs: end((url) => url.pathname.endsWith('.js') && !url.pathname.endsWith('/loyalty-widgets.js')),
  };
})()`;

async function measure(browser: Browser, url: string, deep: boolean): Promise<PaintTimes & Arrivals> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.latencyMs,
    downloadThroughput: THROTTLING.downloadBytesPerSecond,
    uploadThroughput: THROTTLING.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
  // Measured from the navigation's start (performance.now()'s origin), whatever the test driver does.
  await page.goto(url, { waitUntil: 'commit' });
  const figures = await timings(page, deep);
  const arrivals = (await page.evaluate(ARRIVALS)) as Arrivals;
  await context.close();
  return { ...figures, ...arrivals };
}

export async function benchAgainstFloor(): Promise<FloorFigures> {
  const pages = new Map<string, string>();
  const { site, browser, close } = await startStaticShop(pages);
  try {
    pages.set('/article-floor.html', await floorPage(browser, site.origin));
    await widgetPages(site.origin, pages);
    const names = Object.keys(WIDGET_PAGES) as WidgetPage[];
    const widget = new Map<WidgetPage, (PaintTimes & Arrivals)[]>(names.map((name) => [name, []]));
    const floor: (PaintTimes & Arrivals)[] = [];
    // Taken in turns, so that a busy moment of the machine falls on every page alike.
    for (let run = 0; run < RUNS; run++) {
      for (const name of names)
        widget.get(name)!.push(await measure(browser, `${site.origin}${WIDGET_PAGES[name]}`, true));
      floor.push(await measure(browser, `${site.origin}/article-floor.html`, false));
    }
    const summary = (runs: (PaintTimes & Arrivals)[]) => ({
      titlesMs: median(runs.map((r) => r.titlesMs)),
      imageMs: median(runs.map((r) => r.imageMs)),
      cls: median(runs.map((r) => r.cls)),
      htmlMs: median(runs.map((r) => r.htmlMs)),
      scriptTagMs: median(runs.map((r) => r.scriptTagMs)),
      dataMs: median(runs.map((r) => r.dataMs)),
      codeMs: median(runs.map((r) => r.codeMs)),
    });
    const pagesFigures = Object.fromEntries(names.map((name) => [name, summary(widget.get(name)!)])) as Record<
      WidgetPage,
      PaintTimes & Arrivals
    >;
    return { widget: pagesFigures[names[0]!], pages: pagesFigures, floor: summary(floor), runs: RUNS };
  } finally {
    await close();
  }
}

export function printFloorFigures({ widget, pages, floor, runs }: FloorFigures): void {
  console.log(
    `\nA carousel in an article against the same campaigns as static HTML, Chromium, CPU ${THROTTLING.cpuSlowdown}x slower, ${THROTTLING.latencyMs} ms RTT, 1.6 Mbps (median of ${runs}, pages in turns):`,
  );
  const row = (what: string, a: number, b: number): string =>
    `${what.padEnd(34)} ${`${a.toFixed(0)} ms`.padStart(9)} ${`${b.toFixed(0)} ms`.padStart(9)} ${`${(a / b).toFixed(2)}x`.padStart(7)}`;
  for (const [name, figures] of Object.entries(pages)) {
    console.log(
      `${name.padEnd(34)} ${'widget'.padStart(9)} ${'floor'.padStart(9)} ${'ratio'.padStart(7)}   CLS ${figures.cls.toFixed(3)}`,
    );
    console.log(row('  campaign titles painted', figures.titlesMs, floor.titlesMs));
    console.log(row('  first campaign image painted', figures.imageMs, floor.imageMs));
  }
  // What the widget's titles wait for, against the floor's titles: the script tag comes one round
  // trip after the HTML, and the data and the code one more after the script tag, however small.
  const arrival = (what: string, ms: number): string =>
    `  ${what.padEnd(32)} ${`${ms.toFixed(0)} ms`.padStart(9)} ${''.padStart(9)} ${`${(ms / floor.titlesMs).toFixed(2)}x`.padStart(7)}`;
  console.log(`today's page, arrived (ratio to the floor's titles):`);
  console.log(arrival('the HTML', widget.htmlMs));
  console.log(arrival('the script tag', widget.scriptTagMs));
  console.log(arrival('the first page of data', widget.dataMs));
  console.log(arrival("the last of the carousel's files", widget.codeMs));
  console.log(`floor page: the HTML arrived at ${floor.htmlMs.toFixed(0)} ms`);
}
