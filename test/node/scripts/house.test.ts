/**
 * The house report (`npm run house`) run on a small tree written for the test: it counts files and
 * lines per folder, measures functions and classes with the TypeScript parser, and finds the import
 * circles, type-only and `export … from` arrows included, but not a chain that never comes back.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
let dir: string;
let report: string;

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loyalty-house-'));
  await mkdir(join(dir, 'src', 'a'), { recursive: true });
  await mkdir(join(dir, 'src', 'b'), { recursive: true });
  // A circle made of a type-only import one way and a value import the other.
  await writeFile(
    join(dir, 'src', 'a', 'one.ts'),
    `import type { Two } from './two.ts';\nexport const one = 1;\nexport type One = Two;\n`,
  );
  await writeFile(join(dir, 'src', 'a', 'two.ts'), `import { one } from './one.ts';\nexport type Two = typeof one;\n`);
  // A circle through a re-export and an index file.
  await writeFile(join(dir, 'src', 'b', 'index.ts'), `export { three } from './three.js';\n`);
  await writeFile(join(dir, 'src', 'b', 'three.ts'), `import type {} from './index.ts';\nexport const three = 3;\n`);
  // A chain with no way back, and the long functions.
  await writeFile(
    join(dir, 'src', 'long.ts'),
    [
      `import { one } from './a/one.ts';`,
      `export function declared() {\n${body(70)}\n}`,
      `export const arrow = () => {\n${body(30)}\n};`,
      `export class Big {\n  method() {\n${body(205)}\n  }\n}`,
      `export const uses = one;`,
      '',
    ].join('\n'),
  );
  report = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'house.ts'), join(dir, 'src')], {
    cwd: root,
    encoding: 'utf8',
  });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const section = (title: string) => {
  const start = report.indexOf(title);
  assert.ok(start >= 0, `no "${title}" in:\n${report}`);
  const next = report.indexOf('\n\n', report.indexOf('\n\n', start) + 2);
  return report.slice(start, next < 0 ? undefined : next);
};

it('counts files and lines per folder, own and with subfolders', () => {
  const rows = section('Files and lines per folder');
  assert.match(rows, /^src\/\s+1\s+315\s+5\s+323\s+5$/m);
  assert.match(rows, /^src\/a\/\s+2\s+5\s+2\s+5\s+2$/m);
  assert.match(rows, /^src\/b\/\s+2\s+3\s+2\s+3\s+2$/m);
});

it('measures functions from their first line to their last, and names arrows by their variable', () => {
  const rows = section('longest functions').split('\n');
  const row = (name: string) => rows.find((line) => line.includes(` ${name} `));
  assert.match(row('method') ?? '', /^\s*207\s+method\s+src\/long\.ts:\d+$/);
  assert.match(row('declared') ?? '', /^\s*72\s+declared\s+src\/long\.ts:2$/);
  assert.match(row('arrow') ?? '', /^\s*32\s+arrow\s+src\/long\.ts:74$/);
  assert.match(section('Classes over 200 lines'), /^\s*209\s+Big\s+src\/long\.ts:106$/m);
});

it('finds each import circle once, type-only and re-export arrows included', () => {
  const circles = section('Import circles').split('\n').slice(2).filter(Boolean);
  assert.deepEqual(circles.sort(), ['src/a/one.ts <-> src/a/two.ts', 'src/b/index.ts <-> src/b/three.ts']);
});

it('finds no import circle in src/', () => {
  const house = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'house.ts')], {
    cwd: root,
    encoding: 'utf8',
  });
  const circles = house
    .slice(house.indexOf('Import circles'), house.indexOf('\nLayers'))
    .split('\n')
    .slice(2)
    .filter(Boolean);
  assert.deepEqual(circles, ['none']);
});
