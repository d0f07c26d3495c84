/**
 * What the README's "Five minutes as a merchant" tells a merchant to paste first, pasted into an
 * article page as it is (only the CDN address and the app's placeholders filled in), must not move
 * the page while the elements load and fill: cumulative layout shift 0, at a phone and a desktop
 * width, in a wide and a narrow font, whether the script tag runs before the first paint or only
 * after it (the test server holds the script back until the page has painted).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useE2eStack } from '../support/e2e.ts';
import { assertDrawnIn, FONT_FAMILIES, type FontFamily } from '../support/fonts.ts';

const stack = useE2eStack({ staticSites: { site: {} } });

/** The first HTML block of the README's "Five minutes as a merchant". */
async function readmePaste(): Promise<string> {
  const readme = await readFile('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Five minutes as a merchant'));
  const block = /```html\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the README shows an HTML paste in "Five minutes as a merchant"');
  return block.replace(/^ {3}/gm, '');
}

const paragraph = (words: number): string =>
  `<p>${Array.from({ length: words }, (_, index) => ['coffee', 'beans', 'harbor', 'roast'][index % 4]).join(' ')}</p>`;

/** An article page in `font` with the paste between its paragraphs, addresses filled in. */
function articleWith(paste: string, font: FontFamily): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>News from the shop</title>
    <style>
      *, ::before, ::after { font-family: "${font.family}" !important; }
    </style>
  </head>
  <body>
    <main>
      <h1>News from the shop</h1>
      ${paragraph(40)}
      ${paste
        .replaceAll('https://your-cdn.example/loyalty-widgets/', '/dist/')
        .replaceAll('https://connect.example', stack.connectUrl)
        .replaceAll('YOUR_APP_ID', stack.sandbox.demoApp.app_id)}
      ${Array.from({ length: 12 }, () => paragraph(60)).join('\n      ')}
    </main>
  </body>
</html>`;
}

describe("the README's default paste", () => {
  for (const font of FONT_FAMILIES)
    for (const width of [390, 1280])
      for (const scriptAfterPaint of [false, true])
        it(`does not shift the page at ${width}px in ${font.family}, the script ${scriptAfterPaint ? 'held past the first paint' : 'as soon as it arrives'}`, async () => {
          const context = await stack.browser.newContext({ viewport: { width, height: 900 } });
          const page = await context.newPage();
          const url = `${stack.sites.site.origin}/readme-paste.html`;
          const html = articleWith(await readmePaste(), font);
          await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
          let painted: () => void = () => {};
          const firstPaint = new Promise<void>((resolve) => (painted = resolve));
          if (scriptAfterPaint)
            await page.route('**/dist/loyalty-widgets.js', async (route) => {
              await firstPaint;
              await route.continue();
            });
          await page.addInitScript(() => {
            const state = { cls: 0, shifts: [] as string[], painted: false };
            (window as unknown as { __layout: typeof state }).__layout = state;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as (PerformanceEntry & {
                value: number;
                hadRecentInput: boolean;
                sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
              })[]) {
                if (entry.hadRecentInput) continue;
                state.cls += entry.value;
                state.shifts.push(
                  `${entry.value.toFixed(4)} (${entry.sources
                    .map(
                      ({ node, previousRect: a, currentRect: b }) =>
                        `${(node as Element | undefined)?.localName ?? '?'} ${a.x},${a.y} ${a.width}x${a.height} to ${b.x},${b.y} ${b.width}x${b.height}`,
                    )
                    .join(', ')})`,
                );
              }
            }).observe({ type: 'layout-shift', buffered: true });
            new PerformanceObserver(() => (state.painted = true)).observe({ type: 'paint', buffered: true });
          });
          await page.goto(url, { waitUntil: 'commit' });
          if (scriptAfterPaint) {
            await page.waitForFunction(
              () => (window as unknown as { __layout: { painted: boolean } }).__layout.painted,
            );
            const ran = await page.evaluate(() => customElements.get('campaign-carousel') !== undefined);
            assert.equal(ran, false, 'the script tag was held past the first paint');
            painted();
          }
          for (const shown of [
            'campaign-carousel [part~="title"]',
            'coupon-claim [part~="title"]',
            'business-directory [part~="name"]',
            'loyalty-signin-button [part~="button"]',
          ])
            await page.locator(shown).first().waitFor({ timeout: 20_000 });
          await page.waitForLoadState('networkidle');
          await page.evaluate(() => new Promise(requestAnimationFrame));
          await assertDrawnIn(page, font);
          const { cls, shifts } = await page.evaluate(
            () => (window as unknown as { __layout: { cls: number; shifts: string[] } }).__layout,
          );
          assert.equal(cls, 0, `layout shifts: ${shifts.join('; ')}`);
          await context.close();
        });
});
