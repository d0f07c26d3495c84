/**
 * `npm run lighthouse`: Lighthouse (the dev dependency, through its CLI, which starts the Chromium
 * at CHROME_PATH with chrome-launcher and downloads nothing) against the plain article page with one
 * carousel (test/e2e/fixtures/article.html) and every page of the demo merchant site as deployed,
 * served gzipped by a static host beside the sandbox and the proxy, with the mobile and the desktop
 * preset; and with the mobile preset, the page bench's pages (bench/floor.ts): the article with the
 * preload line, printed by the server, its static floor, and (when WordPress is installed) the WordPress
 * post with a campaigns block and its floor. Prints performance, LCP, CLS and accessibility per page
 * and preset (median of LIGHTHOUSE_RUNS runs, default 1, pages in turns), each bench page's LCP beside
 * its floor's, and the accessibility audits that fail. Arguments, if any, keep only the pages whose
 * name holds one of them (`npm run lighthouse -- WordPress preload`). Needs `npm run build`.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { startStaticShop } from '../test/support/e2e.ts';
import { median } from '../bench/page.ts';
import { staticPages, wordPressPages, type BenchPage } from '../bench/floor.ts';
import type { WordPressArticle } from '../test/wordpress/support/article.ts';
import { CHROMIUM_ARGS } from '../test/support/engines.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
const PRESETS = ['mobile', 'desktop'] as const;

interface Report {
  categories: Record<'performance' | 'accessibility', { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    { numericValue?: number; score: number | null; title: string; scoreDisplayMode: string; details?: unknown }
  >;
}

interface Figures {
  performance: number;
  lcpMs: number;
  cls: number;
  accessibility: number;
  failing: string[];
}

const run = promisify(execFile);

async function lighthouse(url: string, preset: (typeof PRESETS)[number]): Promise<Figures> {
  const args = [
    url,
    '--quiet',
    '--output=json',
    '--output-path=stdout',
    '--only-categories=performance,accessibility',
    `--chrome-flags=${CHROMIUM_ARGS.join(' ')}`,
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  const { stdout } = await run('node_modules/.bin/lighthouse', args, {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' },
  });
  const report = JSON.parse(stdout) as Report;
  const accessibilityAudits = report.categories.accessibility.auditRefs
    .map(({ id }) => [id, report.audits[id]!] as const)
    .filter(([, audit]) => audit.scoreDisplayMode === 'binary' && audit.score === 0);
  return {
    performance: Math.round((report.categories.performance.score ?? 0) * 100),
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? NaN,
    cls: report.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    accessibility: Math.round((report.categories.accessibility.score ?? 0) * 100),
    failing: accessibilityAudits.map(([id, audit]) => `${id} (${audit.title})`),
  };
}

interface LighthousePage {
  name: string;
  url: string;
  presets: readonly (typeof PRESETS)[number][];
  /** The name of the page it is held against. */
  floor?: string;
}

const served = new Map<string, string>();
const { site, browser, close } = await startStaticShop(served);
let wordPress: WordPressArticle | undefined;
try {
  const benchPages: Record<string, BenchPage> = await staticPages(browser, site.origin, served);
  const found = await wordPressPages(browser);
  if (typeof found === 'string') console.log(found);
  else {
    wordPress = found.site;
    Object.assign(benchPages, found.pages);
  }
  const demoPages = (await readdir('demo'))
    .filter((file) => file.endsWith('.html') && file !== 'callback.html')
    .map((file) => ({ name: `/demo/${file}`, url: `${site.origin}/demo/${file}`, presets: PRESETS }));
  const chosen = process.argv.slice(2);
  const pages: LighthousePage[] = [
    ...Object.entries(benchPages).map(([name, page]) => ({
      name,
      url: page.url,
      // The article as it was always run, in both presets; the pages beside it on a phone.
      presets: page.url.endsWith('/article.html') ? PRESETS : (['mobile'] as const),
      floor: page.widget ? page.floor : undefined,
    })),
    ...demoPages,
  ].filter(({ name }) => chosen.length === 0 || chosen.some((part) => name.includes(part)));
  console.log(
    `Lighthouse ${RUNS > 1 ? `(median of ${RUNS}, pages in turns)` : '(one run each)'}, built script tag, served gzipped by a static host:`,
  );
  const runs = new Map<string, Figures[]>();
  const key = (page: LighthousePage, preset: string) => `${page.name} ${preset}`;
  for (let round = 0; round < RUNS; round++) {
    for (const page of pages) {
      for (const preset of page.presets) {
        const figures = await lighthouse(page.url, preset);
        runs.set(key(page, preset), [...(runs.get(key(page, preset)) ?? []), figures]);
      }
    }
  }
  const medians = new Map(
    [...runs].map(([name, figures]) => [
      name,
      {
        performance: median(figures.map((r) => r.performance)),
        lcpMs: median(figures.map((r) => r.lcpMs)),
        cls: median(figures.map((r) => r.cls)),
        accessibility: median(figures.map((r) => r.accessibility)),
      },
    ]),
  );
  console.log(
    `${'page'.padEnd(42)} ${'preset'.padEnd(8)} ${'perf'.padStart(5)} ${'LCP'.padStart(9)} ${'CLS'.padStart(7)} ${'a11y'.padStart(5)}   beside the floor (perf, LCP, CLS)`,
  );
  const failures: string[] = [];
  for (const page of pages) {
    for (const preset of page.presets) {
      const figures = medians.get(key(page, preset))!;
      const floor = page.floor ? medians.get(`${page.floor} ${preset}`) : undefined;
      const beside = floor
        ? `   ${floor.performance}, ${floor.lcpMs.toFixed(0)} ms (LCP ${(figures.lcpMs / floor.lcpMs).toFixed(2)}x), ${floor.cls.toFixed(3)}`
        : '';
      console.log(
        `${page.name.padEnd(42)} ${preset.padEnd(8)} ${String(figures.performance).padStart(5)} ${`${figures.lcpMs.toFixed(0)} ms`.padStart(9)} ${figures.cls.toFixed(3).padStart(7)} ${String(figures.accessibility).padStart(5)}${beside}`,
      );
      for (const failing of new Set(runs.get(key(page, preset))!.flatMap((r) => r.failing)))
        failures.push(`${page.name} ${preset}: ${failing}`);
    }
  }
  if (failures.length) console.log(`\nAudits that fail:\n${failures.join('\n')}`);
} finally {
  await wordPress?.close();
  await close();
}
