/**
 * A carousel page against its physical floor, in Chromium throttled as Lighthouse's mobile preset
 * throttles (CPU 4x slower, 150 ms round trips, 1.6 Mbps down, 750 kbps up): the article page with
 * the README's paste and one `<campaign-carousel>` (today's page), the same with the README's preload
 * line for its first page, the same printed by the server with its first page inside
 * (renderFirstPage), and the same article with the same campaigns as static HTML (the titles, and the
 * images with the very `<img>` attributes the carousel rendered) and no script. Beside them, when
 * WordPress is installed, the article as a WordPress post with a campaigns block (the plugin from the
 * built zip, its own proxy route, the sandbox as Marketing), against the same post with the campaigns
 * as static HTML: whatever the plugin prints for the block is measured. Pages are loaded in turns
 * (every page once per round, each round starting at the next page), cold. Median of the time until
 * the campaign titles are painted and until the first campaign image is, each page's ratio to its
 * floor, and its layout shift once the element has taken over; then when today's page's HTML, script
 * tag, first page of data and code had arrived, against the floor's titles.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { startStaticShop } from '../test/support/e2e.ts';
import { articleShapes, floorArticle, STATIC_CAROUSEL, staticCarousel } from '../test/support/article-pages.ts';
import { CHROMIUM_LAYOUT_SHIFT } from '../test/support/layout-shift.ts';
import { startWordPressArticle, type WordPressArticle } from '../test/wordpress/support/article.ts';
import { missingPrograms } from '../test/wordpress/support/wordpress.ts';
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

/** A page the bench loads: its address, whether it has the widget, and the floor it is held against. */
export interface BenchPage {
  url: string;
  widget: boolean;
  floor: string;
  /** The aim for the ratios to the floor (titles, first image), printed beside them. */
  goal?: { titles?: number; image?: number };
}

const TODAYS_PAGE = "today's page (script tag)";
const STATIC_FLOOR = 'floor: the article as static HTML';
const WORDPRESS_FLOOR = 'floor: the WordPress post as static HTML';

/** The static site's pages: the article in its shapes, and its floor. */
export async function staticPages(
  browser: Browser,
  origin: string,
  pages: Map<string, string>,
): Promise<Record<string, BenchPage>> {
  const article = await readFile('test/e2e/fixtures/article.html', 'utf8');
  const { preload, printed } = articleShapes(article);
  pages.set('/article-preload.html', preload);
  pages.set('/article-printed.html', printed);
  pages.set('/article-floor.html', floorArticle(article, await staticCarousel(browser, `${origin}/article.html`)));
  const page = (path: string, goal?: BenchPage['goal']): BenchPage => ({
    url: `${origin}${path}`,
    widget: true,
    floor: STATIC_FLOOR,
    goal,
  });
  return {
    [TODAYS_PAGE]: page('/article.html'),
    'script tag with the preload line': page('/article-preload.html', { titles: 1.6 }),
    'printed by the server (Node)': page('/article-printed.html'),
    [STATIC_FLOOR]: { url: `${origin}/article-floor.html`, widget: false, floor: STATIC_FLOOR },
  };
}

/** The WordPress post and its floor, or why they are not measured. */
export async function wordPressPages(
  browser: Browser,
): Promise<{ pages: Record<string, BenchPage>; site?: WordPressArticle } | string> {
  const missing = missingPrograms();
  if (missing.length) return `The WordPress page is not measured: apt-get install ${missing.join(' ')}`;
  const site = await startWordPressArticle();
  try {
    const floorUrl = site.publishFloor(await staticCarousel(browser, site.url));
    return {
      site,
      pages: {
        'WordPress post, campaigns block': {
          url: site.url,
          widget: true,
          floor: WORDPRESS_FLOOR,
          goal: { titles: 1.1, image: 1.1 },
        },
        [WORDPRESS_FLOOR]: { url: floorUrl, widget: false, floor: WORDPRESS_FLOOR },
      },
    };
  } catch (error) {
    await site.close();
    throw error;
  }
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

type Figures = PaintTimes & Arrivals;

export interface FloorFigures {
  /** Each page's medians, in the order measured in a round. */
  pages: Record<string, BenchPage & Figures>;
  /** Why a page was not measured. */
  notes: string[];
  runs: number;
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
    const title = find('[part~="title"]', '[data-loyalty-first-page] [data-field="title"]', STATIC_TITLE);
    const image = find('[part~="image"]', '[data-loyalty-first-page] img', STATIC_IMAGE);
    if (!titlesMs && painted(title)) titlesMs = now;
    if (titlesMs && image?.complete && image.naturalWidth > 0 && painted(image)) return resolve({ titlesMs, imageMs: now });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

async function timings(page: Page, deep: boolean): Promise<PaintTimes> {
  const script = PAINT_TIMES.replace('DEEP', String(deep))
    .replace('STATIC_TITLE', JSON.stringify(STATIC_CAROUSEL.title))
    .replace('STATIC_IMAGE', JSON.stringify(STATIC_CAROUSEL.image));
  const times = (await page.evaluate(script)) as Omit<PaintTimes, 'cls'>;
  // Once the carousel has taken over whatever was there before it, and the page has settled.
  if (deep) await page.locator('campaign-carousel [part~="title"]').first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500);
  return { ...times, cls: (await page.evaluate(CHROMIUM_LAYOUT_SHIFT)) as number };
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

async function measure(browser: Browser, url: string, deep: boolean): Promise<Figures> {
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
  const served = new Map<string, string>();
  const { site, browser, close } = await startStaticShop(served);
  let wordPress: WordPressArticle | undefined;
  try {
    const pages = await staticPages(browser, site.origin, served);
    const notes: string[] = [];
    const found = await wordPressPages(browser);
    if (typeof found === 'string') notes.push(found);
    else {
      wordPress = found.site;
      Object.assign(pages, found.pages);
    }
    const names = Object.keys(pages);
    const runs = new Map<string, Figures[]>(names.map((name) => [name, []]));
    // Taken in turns, so that a busy moment of the machine falls on every page alike: each round loads
    // every page once, starting one page further on than the round before.
    for (let round = 0; round < RUNS; round++) {
      for (let turn = 0; turn < names.length; turn++) {
        const name = names[(round + turn) % names.length]!;
        runs.get(name)!.push(await measure(browser, pages[name]!.url, pages[name]!.widget));
      }
    }
    const summary = (figures: Figures[]): Figures => ({
      titlesMs: median(figures.map((r) => r.titlesMs)),
      imageMs: median(figures.map((r) => r.imageMs)),
      cls: median(figures.map((r) => r.cls)),
      htmlMs: median(figures.map((r) => r.htmlMs)),
      scriptTagMs: median(figures.map((r) => r.scriptTagMs)),
      dataMs: median(figures.map((r) => r.dataMs)),
      codeMs: median(figures.map((r) => r.codeMs)),
    });
    return {
      pages: Object.fromEntries(names.map((name) => [name, { ...pages[name]!, ...summary(runs.get(name)!) }])),
      notes,
      runs: RUNS,
    };
  } finally {
    await wordPress?.close();
    await close();
  }
}

export function printFloorFigures({ pages, notes, runs }: FloorFigures): void {
  console.log(
    `\nA carousel in an article against the same campaigns as static HTML, Chromium, CPU ${THROTTLING.cpuSlowdown}x slower, ${THROTTLING.latencyMs} ms RTT, 1.6 Mbps (median of ${runs}, pages in turns):`,
  );
  const ratio = (a: number, b: number, goal?: number): string =>
    `${`${(a / b).toFixed(2)}x`.padStart(7)}${goal ? `  (goal ${goal.toFixed(1)}x: ${a / b <= goal ? 'met' : 'not met'})` : ''}`;
  const row = (what: string, a: number, b: number, goal?: number): string =>
    `${what.padEnd(34)} ${`${a.toFixed(0)} ms`.padStart(9)} ${`${b.toFixed(0)} ms`.padStart(9)} ${ratio(a, b, goal)}`;
  for (const [name, figures] of Object.entries(pages)) {
    if (!figures.widget) continue;
    const floor = pages[figures.floor]!;
    console.log(
      `${name.padEnd(34)} ${'widget'.padStart(9)} ${'floor'.padStart(9)} ${'ratio'.padStart(7)}   CLS ${figures.cls.toFixed(3)}   (${figures.floor})`,
    );
    console.log(row('  campaign titles painted', figures.titlesMs, floor.titlesMs, figures.goal?.titles));
    console.log(row('  first campaign image painted', figures.imageMs, floor.imageMs, figures.goal?.image));
  }
  for (const [name, floor] of Object.entries(pages)) {
    if (floor.widget) continue;
    console.log(
      `${name}: titles ${floor.titlesMs.toFixed(0)} ms, first image ${floor.imageMs.toFixed(0)} ms, its HTML arrived at ${floor.htmlMs.toFixed(0)} ms`,
    );
  }
  // What the widget's titles wait for, against the floor's titles: the script tag comes one round
  // trip after the HTML, and the data and the code one more after the script tag, however small.
  const todays = pages[TODAYS_PAGE]!;
  const floorTitles = pages[todays.floor]!.titlesMs;
  const arrival = (what: string, ms: number): string =>
    `  ${what.padEnd(32)} ${`${ms.toFixed(0)} ms`.padStart(9)} ${''.padStart(9)} ${`${(ms / floorTitles).toFixed(2)}x`.padStart(7)}`;
  console.log(`today's page, arrived (ratio to the floor's titles):`);
  console.log(arrival('the HTML', todays.htmlMs));
  console.log(arrival('the script tag', todays.scriptTagMs));
  console.log(arrival('the first page of data', todays.dataMs));
  console.log(arrival("the last of the carousel's files", todays.codeMs));
  for (const note of notes) console.log(note);
}
