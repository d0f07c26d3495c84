/**
 * Type-checks every `@example` in the doc comments under src/ against the real signatures, so an
 * example with a misspelt option or a wrong argument fails `npm test` instead of misleading a reader.
 * Each example becomes a module of its own in a scratch folder, its `loyalty-widgets/…` imports
 * pointed at the source entry that package.json "exports" names.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const scratch = join(root, 'dist', 'doc-examples');

/** Where each import path of the package leads in src/ (as package.json "exports" maps it in dist/). */
const ENTRIES: Record<string, string> = {
  'loyalty-widgets': 'src/index.ts',
  'loyalty-widgets/connect': 'src/connect/index.ts',
  'loyalty-widgets/marketing': 'src/marketing/index.ts',
  'loyalty-widgets/proxy': 'src/proxy/index.ts',
  'loyalty-widgets/proxy/node': 'src/proxy/node.ts',
  'loyalty-widgets/proxy/redis': 'src/proxy/redis-store.ts',
  'loyalty-widgets/proxy/doctor': 'src/proxy/doctor.ts',
  'loyalty-widgets/proxy/cloudflare': 'src/proxy/cloudflare-store.ts',
  'loyalty-widgets/proxy/deno': 'src/proxy/deno-kv-store.ts',
  'loyalty-widgets/sandbox': 'src/sandbox/index.ts',
};

/**
 * Names an example may use without defining them: what a request handler has at hand. Anything else
 * it uses must be imported or defined in the example itself.
 */
const AMBIENT =
  'declare const body: { idToken: string; accessToken: string }; ' +
  // Deno's global, as far as the Deno examples use it (still one line: error lines are mapped back by it).
  `declare const Deno: { openKv(path?: string): Promise<import('${relative(scratch, join(root, 'src/proxy/deno-kv-store.ts'))}').DenoKv>; ` +
  'env: { get(name: string): string | undefined }; serve(handler: (request: Request, info: object) => Promise<Response>): unknown };\n';

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The code of each `@example` fenced block in a file's doc comments, with its line number. */
function examplesIn(text: string): { line: number; code: string }[] {
  const found: { line: number; code: string }[] = [];
  const pattern = /@example\s*\n\s*\* ```ts\n([\s\S]*?)\n\s*\* ```/g;
  for (const match of text.matchAll(pattern)) {
    const code = match[1]!
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n');
    found.push({ line: text.slice(0, match.index).split('\n').length, code });
  }
  return found;
}

await rm(scratch, { recursive: true, force: true });
await mkdir(scratch, { recursive: true });
const written: { path: string; line: number }[] = [];
for (const path of await sourceFiles(join(root, 'src'))) {
  for (const { line, code } of examplesIn(await readFile(path, 'utf8'))) {
    const file = join(scratch, `example-${written.length + 1}.ts`);
    const pointed = code.replace(/from '(loyalty-widgets(?:\/[\w/-]+)?)'/g, (whole, name: string) => {
      const tag = /^loyalty-widgets\/elements\/([\w-]+)$/.exec(name)?.[1];
      const entry = tag ? `src/elements/${tag}/index.ts` : ENTRIES[name];
      if (!entry) throw new Error(`${relative(root, path)}:${line}: an example imports ${name}, which is not an entry`);
      return `from '${relative(scratch, join(root, entry))}'`;
    });
    // `export {}` makes each example a module, so top-level await works and names do not collide.
    await writeFile(file, `${AMBIENT}${pointed}\nexport {};\n`);
    written.push({ path: relative(root, path), line });
  }
}

await writeFile(
  join(scratch, 'tsconfig.json'),
  JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true }, include: ['*.ts'] }),
);
try {
  await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch]);
  console.log(`The ${written.length} @example blocks in src/ type-check.`);
  await rm(scratch, { recursive: true, force: true });
} catch (error) {
  // tsc names the scratch file and its line; name the source line instead (the file starts with AMBIENT's
  // one line, the example's first line is the one after its @example line and the fence).
  const output = ((error as { stdout?: string }).stdout ?? String(error)).replace(
    /dist\/doc-examples\/example-(\d+)\.ts\((\d+),(\d+)\)/g,
    (whole, index: string, line: string, column: string) => {
      const example = written[Number(index) - 1];
      return example ? `${example.path}:${example.line + Number(line)}:${Number(column) + 3}` : whole;
    },
  );
  console.error(output);
  process.exitCode = 1;
}
