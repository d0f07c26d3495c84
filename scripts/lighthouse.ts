/**
 * `npm run lighthouse`: Lighthouse (the dev dependency, through its CLI, which starts the Chromium
 * at CHROME_PATH with chrome-launcher and downloads nothing) against the plain article page with one
 * carousel (test/e2e/fixtures/article.html) and every page of the demo merchant site as deployed,
 * served gzipped by a static host beside the sandbox and the proxy, with the mobile and the desktop
 * preset. Prints performance, LCP, CLS and accessibility per page and preset (median of
 * LIGHTHOUSE_RUNS runs, default 1), and the accessibility audits that fail. Needs `npm run build`.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { startStaticShop } from '../test/support/e2e.ts';
import { median } from '../bench/page.ts';
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

const demoPages = (await readdir('demo'))
  .filter((file) => file.endsWith('.html') && file !== 'callback.html')
  .map((file) => `/demo/${file}`);
const pages = ['/article.html', ...demoPages];

const { site, close } = await startStaticShop();
try {
  console.log(
    `Lighthouse ${RUNS > 1 ? `(median of ${RUNS})` : '(one run each)'}, built script tag, served gzipped by a static host:`,
  );
  console.log(
    `${'page'.padEnd(22)} ${'preset'.padEnd(8)} ${'perf'.padStart(5)} ${'LCP'.padStart(9)} ${'CLS'.padStart(7)} ${'a11y'.padStart(5)}`,
  );
  const failures: string[] = [];
  for (const path of pages) {
    for (const preset of PRESETS) {
      const runs: Figures[] = [];
      // Pages and presets in turns would be fairer to a busy machine; runs of one page follow each other.
      for (let index = 0; index < RUNS; index++) runs.push(await lighthouse(`${site.origin}${path}`, preset));
      const figures = {
        performance: median(runs.map((r) => r.performance)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        cls: median(runs.map((r) => r.cls)),
        accessibility: median(runs.map((r) => r.accessibility)),
      };
      console.log(
        `${path.padEnd(22)} ${preset.padEnd(8)} ${String(figures.performance).padStart(5)} ${`${figures.lcpMs.toFixed(0)} ms`.padStart(9)} ${figures.cls.toFixed(3).padStart(7)} ${String(figures.accessibility).padStart(5)}`,
      );
      for (const failing of new Set(runs.flatMap((r) => r.failing))) failures.push(`${path} ${preset}: ${failing}`);
    }
  }
  if (failures.length) console.log(`\nAudits that fail:\n${failures.join('\n')}`);
} finally {
  await close();
}
