/**
 * The tarball's name from `npm pack --json`, whichever npm is `npm`: npm 11 prints an array, npm 12
 * an object keyed by package name. The runtime suite and `pack:check` read it this way.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { packedFilename } from '../../../scripts/npm-pack.ts';

const exec = promisify(execFile);
const entry = { id: '@scope/demo@1.0.0', name: '@scope/demo', filename: 'scope-demo-1.0.0.tgz', files: [] };

test("npm 11's array and npm 12's object keyed by package name give the same file name", () => {
  assert.equal(packedFilename(JSON.stringify([entry])), 'scope-demo-1.0.0.tgz');
  assert.equal(packedFilename(JSON.stringify({ '@scope/demo': entry })), 'scope-demo-1.0.0.tgz');
});

test('what is not one packed tarball is an error that quotes what npm printed', () => {
  assert.throws(() => packedFilename('npm notice'), /printed no JSON: npm notice/);
  assert.throws(() => packedFilename('[]'), /named 0 packages/);
  assert.throws(() => packedFilename(JSON.stringify({ a: entry, b: entry })), /named 2 packages/);
  assert.throws(() => packedFilename('null'), /named 0 packages/);
  assert.throws(() => packedFilename(JSON.stringify([{ ...entry, filename: undefined }])), /no tarball file name/);
  assert.throws(() => packedFilename(JSON.stringify([{ ...entry, filename: '../x.tgz' }])), /no tarball file name/);
});

test('the npm on the PATH packs a folder into the file name read from its JSON', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-npm-pack-'));
  try {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: '@scope/demo', version: '1.2.3' }));
    await writeFile(join(dir, 'index.js'), 'export {};\n');
    const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: dir,
    });
    const filename = packedFilename(stdout);
    assert.equal(filename, 'scope-demo-1.2.3.tgz');
    await exec('tar', ['-tzf', join(dir, filename)]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
