/**
 * Page figures for a merchant's page in Chromium: the demo merchant site's pages as deployed (the
 * built script tag in place of the dev server's source entry) and a bare static page with only a
 * carousel, served gzipped like a merchant would serve them. Prints the
 * median over several cold loads of: time until the first campaign is visible, cumulative layout
 * shift, bytes transferred and requests made (first load, and whether the sign-in chunk came too).
 */
import { startStaticShop } from '../test/support/e2e.ts';

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 7);

interface PageFigures {
  firstCampaignMs: number;
  cls: number;
  bytes: number;
  requests: number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function benchPage(pagePath = '/campaigns-only.html'): Promise<PageFigures> {
  const { site, browser, close } = await startStaticShop();
  const runs: PageFigures[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        const state = { cls: 0 };
        (window as unknown as { __layoutShift: typeof state }).__layoutShift = state;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) state.cls += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      let bytes = 0;
      let requests = 0;
      cdp.on('Network.requestWillBeSent', () => requests++);
      cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength));
      await page.goto(`${site.origin}${pagePath}`);
      const firstCampaignMs = await page.waitForFunction(
        () => {
          const carousel = document.querySelector('campaign-carousel');
          const title = carousel?.shadowRoot?.querySelector('[part~="title"]');
          const box = title?.getBoundingClientRect();
          // Laid out is not enough: a page's own rules may keep an element invisible.
          const painted = title?.checkVisibility({ visibilityProperty: true, opacityProperty: true }) ?? false;
          return box && box.height > 0 && painted ? performance.now() : false;
        },
        undefined,
        { timeout: 20_000, polling: 'raf' },
      );
      const visibleAt = (await firstCampaignMs.jsonValue()) as number;
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      const cls = await page.evaluate(
        () => (window as unknown as { __layoutShift: { cls: number } }).__layoutShift.cls,
      );
      runs.push({ firstCampaignMs: visibleAt, cls, bytes, requests });
      await context.close();
    }
  } finally {
    await close();
  }
  return {
    firstCampaignMs: median(runs.map((r) => r.firstCampaignMs)),
    cls: median(runs.map((r) => r.cls)),
    bytes: median(runs.map((r) => r.bytes)),
    requests: median(runs.map((r) => r.requests)),
  };
}

export function printPageFigures(label: string, figures: PageFigures): void {
  console.log(
    `${label.padEnd(42)} first campaign visible ${figures.firstCampaignMs.toFixed(0).padStart(5)} ms   CLS ${figures.cls.toFixed(3)}   ${(figures.bytes / 1000).toFixed(1).padStart(6)} kB   ${figures.requests} requests   (median of ${RUNS})`,
  );
}
