/**
 * `npm run size`: gzip sizes of what a merchant's page downloads, from the build's manifest.
 *
 * - "script tag": the entry a merchant pastes and its static imports, what every page loads before
 *   it knows which elements it has. Budget: 15 kB.
 * - one row per element: what a page with only that element loads in all (script tag included),
 *   before any interaction; and a page with every element.
 * - "sign-in chunk": what the sign-in button loads ahead of the click (oidc-client-ts, jose, the
 *   Connect client), beyond what the page already has. Budget: 30 kB.
 * Fails when a budget is exceeded. Every file is counted gzipped on its own, as it is served.
 */
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const BUDGETS = { scriptTag: 15_000, signIn: 30_000 };
const ENTRY = 'src/index.ts';
const SIGN_IN = 'src/connect/client.ts';
const ELEMENTS = ['campaign-carousel', 'coupon-claim', 'business-directory', 'loyalty-signin-button'];

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

/** Every chunk a key pulls in through static imports, itself included. */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of chunk(key).imports ?? []) staticClosure(imported, into);
  return into;
}

const union = (...sets: Set<string>[]): Set<string> => new Set(sets.flatMap((set) => [...set]));
const minus = (set: Set<string>, without: Set<string>): Set<string> => new Set([...set].filter((key) => !without.has(key)));

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
const elementPages = ELEMENTS.map((tag) => [tag, union(scriptTag, staticClosure(`src/elements/${tag}/index.ts`))] as const);
const everyElement = union(...elementPages.map(([, keys]) => keys));
const signIn = minus(staticClosure(SIGN_IN), everyElement);

const kb = (bytes: number): string => `${(bytes / 1000).toFixed(2)} kB`;
const rows: [string, number, number | undefined][] = [
  ['script tag (first load)', await gzipSize(scriptTag), BUDGETS.scriptTag],
  ...(await Promise.all(elementPages.map(async ([tag, keys]) => [`page with <${tag}>`, await gzipSize(keys), undefined] as [string, number, undefined]))),
  ['page with every element', await gzipSize(everyElement), undefined],
  ['sign-in chunk', await gzipSize(signIn), BUDGETS.signIn],
];

console.log(`${'what'.padEnd(40)} ${'gzip'.padStart(10)} ${'budget'.padStart(10)}`);
let over = false;
for (const [name, size, budget] of rows) {
  const verdict = budget === undefined ? '' : size <= budget ? 'ok' : 'OVER';
  if (verdict === 'OVER') over = true;
  console.log(`${name.padEnd(40)} ${kb(size).padStart(10)} ${(budget ? kb(budget) : '').padStart(10)} ${verdict}`);
}
console.log(`sign-in chunk files: ${[...signIn].map((key) => chunk(key).file).join(', ')}`);
if (over) {
  console.error('Over the size budget.');
  process.exitCode = 1;
}
