/**
 * `npm run size`: gzip sizes of what each kind of merchant page really fetches, found by following
 * the built module graph (dist/.vite/manifest.json) from the script tag: its static imports, plus the
 * dynamic imports the script tag makes for the elements on the page, with their static imports.
 *
 * - "script tag alone": what every page loads before it knows which elements it has (the loader,
 *   the plumbing every element shares, the early data requests). Budget: 6 kB.
 * - one row per element: what a page with only that element fetches at load, the script tag and
 *   lit included. Budget for the three Marketing elements' pages: 23 kB, a little above what the
 *   largest (the coupon's) needs today, so that no change grows a page unnoticed. The aim is 20 kB;
 *   the script tag is 5 kB of it and lit with @lit/task 7 kB. What a Marketing page needs only after
 *   a click stays out of it: a coupon's claim (keys, Web Locks, retries) is fetched on the shopper's
 *   intent, shown below as the coupon page after the claim, for information. The sign-in button's
 *   and the launcher's pages have their own budget, 21.5 kB, a little above the sign-in button's today.
 * - the sign-in page after the click: the sign-in chunk (oidc-client-ts, jose), fetched on the
 *   shopper's intent, on top of what the page fetched at load. Budget: the page's plus 28 kB.
 * - the launcher page: at load, everything `<loyalty-launcher>`'s button fetches beyond the script tag
 *   (no lit), as a page whose only element is the launcher fetches it. Budget: 4 kB. After opening:
 *   the panel's code (lit and the four elements it holds), fetched on the shopper's intent, on top
 *   of the page at load. Budget: 40 kB.
 * - a page with every element, and each built-in language other than English (fetched only by pages
 *   that speak it), for information.
 * - the stylesheet that holds the elements' space, which the README's paste links.
 * - the printer of preloaded first pages (dist/first-page.js), which the README's preload paste loads
 *   beside the script tag. Budget: 4 kB. It must import no file: it prints as soon as it is here.
 * Fails when a budget is exceeded, when the script tag imports any file (one more round trip before
 * any element starts), or when a headless entry's files import the script tag (it would run there).
 * Every file is counted gzipped on its own, as it is served.
 *
 * `npm run size -- --modules` also prints what each Marketing element's page is made of: each file it
 * fetches, and in it the source modules by their share of the file's bytes (read from the source maps),
 * that share of the file's gzip beside them: where a page's bytes go, before deciding what to cut. And
 * the page's files gzipped as one stream: what the same code would weigh in one file, about the least
 * any grouping of it into files could reach (each file served starts its compression afresh).
 */
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { ELEMENT_FILES_MARKER } from './vite-element-files.ts';
import { gzipSync } from 'node:zlib';
import { ELEMENT_TAGS } from '../src/shared/tags.ts';

const BUDGETS = {
  scriptTag: 6_000,
  marketingPage: 23_000,
  elementPage: 21_500,
  signInChunk: 28_000,
  launcherButton: 4_000,
  launcherPanel: 40_000,
  firstPagePrinter: 4_000,
};
const ENTRY = 'src/index.ts';
const SIGN_IN = 'src/connect/client.ts';
const CLAIM = 'src/elements/coupon-claim/claim-request.ts';
const MARKETING_ELEMENTS: readonly string[] = ['campaign-carousel', 'coupon-claim', 'business-directory'];
const LAUNCHER = 'src/elements/loyalty-launcher/index.ts';
const LAUNCHER_PANEL = 'src/elements/loyalty-launcher/launcher-panel.ts';
const FIRST_PAGE_PRINTER = 'src/first-page.ts';
const ELEMENTS = ELEMENT_TAGS;

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, Chunk>;

function chunk(key: string): Chunk {
  const found = manifest[key];
  if (!found) throw new Error(`dist/.vite/manifest.json has no chunk ${key}; run npm run build`);
  return found;
}

/** Every chunk a key pulls in through static imports (and dynamic ones too, when asked), itself included. */
function closure(key: string, dynamic = false, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  const imported = [...(chunk(key).imports ?? []), ...(dynamic ? (chunk(key).dynamicImports ?? []) : [])];
  for (const next of imported) closure(next, dynamic, into);
  return into;
}
const staticClosure = (key: string): Set<string> => closure(key);

const union = (...sets: Set<string>[]): Set<string> => new Set(sets.flatMap((set) => [...set]));
const minus = (set: Set<string>, without: Set<string>): Set<string> =>
  new Set([...set].filter((key) => !without.has(key)));

const gzipCache = new Map<string, number>();
async function gzipSize(keys: Set<string>): Promise<number> {
  let total = 0;
  for (const key of keys) {
    const file = chunk(key).file;
    if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(await readFile(`dist/${file}`), { level: 9 }).length);
    total += gzipCache.get(file)!;
  }
  return total;
}

const scriptTag = staticClosure(ENTRY);
/** The element module the script tag imports for a tag: one of its dynamic imports. */
function elementModule(tag: string): string {
  const key = `src/elements/${tag}/index.ts`;
  if (!chunk(ENTRY).dynamicImports?.includes(key)) throw new Error(`the script tag does not load ${key}`);
  return key;
}
const elementPages = ELEMENTS.map((tag) => [tag, union(scriptTag, staticClosure(elementModule(tag)))] as const);
const everyElement = union(...elementPages.map(([, keys]) => keys));
const signInPage = elementPages.find(([tag]) => tag === 'loyalty-signin-button')![1];
const signInLoader = [...signInPage].find((key) => chunk(key).dynamicImports?.includes(SIGN_IN));
if (!signInLoader) throw new Error(`nothing on the sign-in page loads ${SIGN_IN}`);
const signIn = minus(staticClosure(SIGN_IN), signInPage);

const couponPage = elementPages.find(([tag]) => tag === 'coupon-claim')![1];
if (![...couponPage].some((key) => chunk(key).dynamicImports?.includes(CLAIM)))
  throw new Error(`nothing on the coupon page loads ${CLAIM}`);
const claim = minus(staticClosure(CLAIM), couponPage);

const launcherPage = elementPages.find(([tag]) => tag === 'loyalty-launcher')![1];
if (!chunk(LAUNCHER).dynamicImports?.includes(LAUNCHER_PANEL))
  throw new Error(`the launcher does not load ${LAUNCHER_PANEL}`);
const launcherPanel = minus(staticClosure(LAUNCHER_PANEL), launcherPage);
const launcherButton = minus(launcherPage, scriptTag);

const locales = Object.keys(manifest).filter((key) => key.startsWith('src/locales/'));

const kb = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`;
type Row = [name: string, keys: Set<string>, budget?: number];
const rows: Row[] = [
  ['script tag alone (no element)', scriptTag, BUDGETS.scriptTag],
  ...elementPages.map(([tag, keys]): Row => [
    `page with only <${tag}>, at load`,
    keys,
    MARKETING_ELEMENTS.includes(tag) ? BUDGETS.marketingPage : BUDGETS.elementPage,
  ]),
  ['coupon page after the claim', union(couponPage, claim)],
  ['  of which the claim', claim],
  ['sign-in page after the click', union(signInPage, signIn), BUDGETS.elementPage + BUDGETS.signInChunk],
  ['  of which the sign-in chunk', signIn, BUDGETS.signInChunk],
  ['  launcher button, beyond the script tag', launcherButton, BUDGETS.launcherButton],
  [
    'launcher page after opening',
    union(launcherPage, launcherPanel),
    BUDGETS.scriptTag + BUDGETS.launcherButton + BUDGETS.launcherPanel,
  ],
  ['  of which the panel', launcherPanel, BUDGETS.launcherPanel],
  ['page with every element, at load', everyElement],
  ['preloaded first pages: first-page.js', staticClosure(FIRST_PAGE_PRINTER), BUDGETS.firstPagePrinter],
  ...locales.map((key): Row => [
    `${key.slice('src/locales/'.length, -'.ts'.length)} strings, when spoken`,
    minus(staticClosure(key), everyElement),
  ]),
];

console.log(
  `${'page: what it fetches'.padEnd(46)} ${'gzip'.padStart(10)} ${'files'.padStart(6)} ${'budget'.padStart(10)}`,
);
let over = false;
for (const [name, keys, budget] of rows) {
  const size = await gzipSize(keys);
  const verdict = budget === undefined ? '' : size <= budget ? 'ok' : 'OVER';
  if (verdict === 'OVER') over = true;
  console.log(
    `${name.padEnd(46)} ${kb(size).padStart(10)} ${String(keys.size).padStart(6)} ${(budget ? kb(budget) : '').padStart(10)} ${verdict}`,
  );
}
const stylesheet = gzipSync(await readFile('dist/loyalty-widgets.css'), { level: 9 }).length;
console.log(
  `${'loyalty-widgets.css (the paste links it)'.padEnd(46)} ${kb(stylesheet).padStart(10)} ${'1'.padStart(6)}`,
);
console.log(`sign-in chunk files: ${[...signIn].map((key) => chunk(key).file).join(', ')}`);
if (over) {
  console.error('Over the size budget.');
  process.exitCode = 1;
}

// The chunk groups (vite.config.ts) must keep these apart; a moved module could silently undo them.
const withLit = (keys: Set<string>): string[] =>
  [...keys].filter((key) => readFileSync(`dist/${chunk(key).file}`, 'utf8').includes('lit-html'));
for (const entry of ['src/marketing/index.ts', 'src/connect/index.ts', 'src/connect/callback-page.ts']) {
  const litChunks = withLit(staticClosure(entry));
  if (litChunks.length) {
    console.error(`${entry} is meant to be headless but its chunks bring lit: ${litChunks.join(', ')}`);
    process.exitCode = 1;
  }
  if (closure(entry, true).has(ENTRY)) {
    console.error(`${entry} is meant to be headless but its files import the script tag, which would run there.`);
    process.exitCode = 1;
  }
}
// What the script tag fetches together with each element's file (scripts/vite-element-files.ts).
const loader = readFileSync(`dist/${chunk(ENTRY).file}`, 'utf8');
for (const [tag, keys] of elementPages) {
  const ahead = [...minus(keys, scriptTag)]
    .filter((key) => key !== `src/elements/${tag}/index.ts`)
    .map((key) => chunk(key).file);
  const missing = ahead.filter((file) => !loader.includes(`"./${file}"`));
  if (loader.includes(ELEMENT_FILES_MARKER) || missing.length) {
    console.error(
      `The script tag does not fetch ahead what <${tag}> imports: ${missing.join(', ') || 'the marker was not replaced'}`,
    );
    process.exitCode = 1;
  }
}
// The script tag starts the elements' code and data as soon as it runs, which is only once its own
// imports have arrived: any file it imports is one more round trip before any element starts
// (vite.config.ts's `loyalty-widgets` group keeps what it uses in its own file).
const imported = chunk(ENTRY).imports ?? [];
if (imported.length) {
  console.error(
    `The script tag imports ${imported.map((key) => chunk(key).file).join(', ')}: one round trip before its elements start.`,
  );
  process.exitCode = 1;
}
// The printer of preloaded first pages: loaded by the page's own line, it prints as soon as it is here.
if (chunk(FIRST_PAGE_PRINTER).imports?.length || !chunk(ENTRY).dynamicImports?.includes(FIRST_PAGE_PRINTER)) {
  console.error(`${FIRST_PAGE_PRINTER} must import no file, and the script tag must load it.`);
  process.exitCode = 1;
}
const elementChunks = ELEMENTS.map((tag) => `src/elements/${tag}/index.ts`).filter((key) => scriptTag.has(key));
if (elementChunks.length) {
  console.error(
    `The first load carries element code it should fetch only when the tag is on the page: ${elementChunks.join(', ')}`,
  );
  process.exitCode = 1;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The source of each generated byte of a built file, counted per source, from its source map. */
function bytesBySource(file: string): Map<string, number> {
  const code = readFileSync(`dist/${file}`, 'utf8');
  const map = JSON.parse(readFileSync(`dist/${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const counts = new Map<string, number>();
  const count = (source: string, bytes: number): void => void counts.set(source, (counts.get(source) ?? 0) + bytes);
  let source = 0;
  map.mappings.split(';').forEach((segments, line) => {
    const length = lines[line]?.length ?? 0;
    // Each segment: generated column (from the line's start), then source index, line and column (from the previous).
    const starts: [column: number, source: number][] = [];
    let column = 0;
    for (const segment of segments.split(',').filter(Boolean)) {
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        shift += 5;
        if (digit & 32) continue;
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
      column += fields[0] ?? 0;
      if (fields.length > 1) source += fields[1]!;
      starts.push([column, source]);
    }
    let from = 0;
    let current = -1;
    for (const [start, index] of [...starts, [length, -1] as [number, number]]) {
      count(current < 0 ? '(the bundler’s own)' : (map.sources[current] ?? '?'), start - from);
      [from, current] = [start, index];
    }
  });
  return counts;
}

const shortSource = (source: string): string =>
  source
    .replace(/^(\.\.\/)+/, '')
    .replace(/^.*node_modules\//, '')
    .replace(/\?(headless|first-page)-copy$/, ' ($1 copy)');

if (process.argv.includes('--modules')) {
  for (const [tag, keys] of elementPages.filter(([tag]) => MARKETING_ELEMENTS.includes(tag))) {
    const files = [...keys].map((key) => chunk(key).file);
    const oneStream = gzipSync(Buffer.concat(await Promise.all(files.map((file) => readFile(`dist/${file}`)))), {
      level: 9,
    }).length;
    console.log(
      `\n<${tag}>'s page, ${kb(await gzipSize(keys))} (its files as one gzip stream: ${kb(oneStream)}): each file, and its sources by their share of it`,
    );
    const sizes = await Promise.all(
      [...keys].map(async (key) => [chunk(key).file, await gzipSize(new Set([key]))] as const),
    );
    for (const [file, gzip] of sizes.sort((a, b) => b[1] - a[1])) {
      console.log(`  ${kb(gzip).padStart(9)}  ${file}`);
      if (!existsSync(`dist/${file}.map`)) continue;
      const sources = [...bytesBySource(file)];
      const total = sources.reduce((sum, [, bytes]) => sum + bytes, 0);
      for (const [source, bytes] of sources.sort((a, b) => b[1] - a[1]).filter(([, bytes]) => bytes / total >= 0.02))
        console.log(`  ${kb((gzip * bytes) / total).padStart(18)}  ${shortSource(source)}`);
    }
  }
}
