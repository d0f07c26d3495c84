/**
 * `npm run size`: gzip sizes of what a merchant's page downloads. "First load" is the script-tag
 * entry and every chunk it imports statically; "sign-in" is what the sign-in button loads later
 * (oidc-client-ts, jose, the Connect client). Fails when either is over its budget.
 */
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const BUDGETS = { firstLoad: 15_000, signIn: 30_000 };
const ENTRY = 'src/index.ts';

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
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

async function gzipSize(keys: Iterable<string>): Promise<{ raw: number; gzip: number; files: string[] }> {
  let raw = 0;
  let gzip = 0;
  const files: string[] = [];
  for (const key of keys) {
    const file = chunk(key).file;
    const bytes = await readFile(`dist/${file}`);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    files.push(file);
  }
  return { raw, gzip, files };
}

const firstLoadKeys = staticClosure(ENTRY);
const lazyKeys = new Set<string>();
for (const key of firstLoadKeys) {
  for (const dynamic of chunk(key).dynamicImports ?? []) {
    for (const lazy of staticClosure(dynamic)) if (!firstLoadKeys.has(lazy)) lazyKeys.add(lazy);
  }
}

const firstLoad = await gzipSize(firstLoadKeys);
const signIn = await gzipSize(lazyKeys);
const kb = (n: number): string => `${(n / 1000).toFixed(2)} kB`;
const rows = [
  ['first load', firstLoad, BUDGETS.firstLoad],
  ['sign-in chunk', signIn, BUDGETS.signIn],
] as const;

console.log('what                 raw        gzip      budget   files');
for (const [name, size, budget] of rows) {
  const verdict = size.gzip <= budget ? 'ok' : 'OVER';
  console.log(`${name.padEnd(20)} ${kb(size.raw).padStart(10)} ${kb(size.gzip).padStart(10)} ${kb(budget).padStart(10)} ${verdict}  ${size.files.join(', ')}`);
}
if (rows.some(([, size, budget]) => size.gzip > budget)) {
  console.error('Over the size budget.');
  process.exitCode = 1;
}
