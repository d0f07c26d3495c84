/**
 * The layer check (`npm run layers`, in `npm test`) run on small trees written for the test, named
 * like `src/`'s folders: imports that point down pass; an import up, across to a part no layer below
 * allows, a circle between folders of one layer, or a folder no layer names fails the check and is
 * named. Type-only imports count like any other.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];

after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Writes the files (path under src/ to its text), runs the check on them: its exit code and output. */
async function check(files: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-layers-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, 'src', path)), { recursive: true });
    await writeFile(join(dir, 'src', path), text);
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'layers.ts'), join(dir, 'src')], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The lines of one section of the report, after its title. */
function section(output: string, title: string): string[] {
  const start = output.indexOf(`\n${title}\n`);
  assert.ok(start >= 0, `no "${title}" in:\n${output}`);
  const rest = output.slice(start + title.length + 2);
  const end = rest.indexOf('\n\n');
  return (end < 0 ? rest : rest.slice(0, end)).split('\n').filter(Boolean);
}

// A proxy and a page that follow the layers: each import points down.
const downward = {
  'shared/url.ts': `export const url = 1;\n`,
  'connect/id-token.ts': `import { url } from '../shared/url.ts';\nexport const idToken = url;\n`,
  'proxy/shared/errors.ts': `export class ProxyError extends Error {}\n`,
  'proxy/stores/contract.ts': `export interface ProxyStore { get(key: string): Promise<string> }\n`,
  'proxy/upstream/transport.ts': `import { ProxyError } from '../shared/errors.ts';\nexport const fail = ProxyError;\n`,
  'proxy/http/claim.ts':
    `import type { ProxyStore } from '../stores/contract.ts';\n` +
    `import { fail } from '../upstream/transport.ts';\n` +
    `export type Store = ProxyStore;\nexport const claim = fail;\n`,
  'proxy/index.ts': `export { claim } from './http/claim.ts';\n`,
  'elements/coupon-claim/coupon-claim.ts': `import { idToken } from '../../connect/id-token.ts';\nexport const c = idToken;\n`,
  'index.ts': `export const load = () => import('./elements/coupon-claim/coupon-claim.ts');\n`,
};

describe('the layer check', () => {
  it('passes a tree whose imports all point down, and counts its arrows between folders', async () => {
    const { status, output } = await check(downward);
    assert.equal(status, 0, output);
    assert.match(output, /^Arrows between folders: 7 \(7 imports\)$/m);
    assert.match(output, /^Upward arrows: 0$/m);
    assert.match(output, /^Circles between folders: 0$/m);
  });

  it('fails on an upward import, type-only included, and names the folders and the files', async () => {
    const { status, output } = await check({
      ...downward,
      'proxy/stores/contract.ts': `import type { Store } from '../http/claim.ts';\nexport type ProxyStore = Store;\n`,
    });
    assert.equal(status, 1, output);
    assert.match(output, /^Upward arrows: 1$/m);
    assert.deepEqual(section(output, 'Upward arrows'), [
      'proxy/stores -> proxy/http',
      '  proxy/stores/contract.ts -> proxy/http/claim.ts',
    ]);
    // The arrow also closes a circle with the downward one.
    assert.deepEqual(section(output, 'Circles between folders'), ['proxy/http <-> proxy/stores']);
    assert.match(output, /The layers of src\/ are broken/);
  });

  it('fails on an import across to a part that is neither below nor beside', async () => {
    const { status, output } = await check({
      ...downward,
      'proxy/upstream/transport.ts': `import { c } from '../../elements/coupon-claim/coupon-claim.ts';\nexport const fail = c;\n`,
    });
    assert.equal(status, 1, output);
    assert.deepEqual(section(output, 'Arrows across to a part not below'), [
      'proxy/upstream -> elements/coupon-claim',
      '  proxy/upstream/transport.ts -> elements/coupon-claim/coupon-claim.ts',
    ]);
    assert.match(output, /^Upward arrows: 0$/m);
  });

  it('fails on a circle between two folders of one layer, through a re-export', async () => {
    const { status, output } = await check({
      ...downward,
      'marketing/client.ts': `import { idToken } from '../connect/id-token.ts';\nexport const client = idToken;\n`,
      'connect/session.ts': `export { client } from '../marketing/client.ts';\n`,
    });
    assert.equal(status, 1, output);
    assert.match(output, /^Upward arrows: 0$/m);
    assert.deepEqual(section(output, 'Circles between folders'), ['connect <-> marketing']);
  });

  it('fails on two elements that import each other', async () => {
    const { status, output } = await check({
      ...downward,
      'elements/coupon-claim/coupon-claim.ts': `import '../loyalty-launcher/panel.ts';\nexport const c = 1;\n`,
      'elements/loyalty-launcher/panel.ts': `import '../coupon-claim/coupon-claim.ts';\n`,
    });
    assert.equal(status, 1, output);
    assert.deepEqual(section(output, 'Circles between folders'), [
      'elements/coupon-claim <-> elements/loyalty-launcher',
    ]);
  });

  it('fails on a folder no layer names, and names it', async () => {
    const { status, output } = await check({ ...downward, 'proxy/extras/thing.ts': `export const thing = 1;\n` });
    assert.equal(status, 1, output);
    assert.deepEqual(section(output, 'Folders no layer names (scripts/layers.ts)'), ['proxy/extras']);
  });

  it('counts the sandbox as one part: its folders may import each other, the proxy may not import it', async () => {
    const sandbox = {
      'sandbox/connect/app.ts': `import { keys } from '../keys.ts';\nexport const app = keys;\n`,
      'sandbox/keys.ts': `export const keys = 1;\nexport const load = () => import('./connect/app.ts');\n`,
    };
    assert.equal((await check({ ...downward, ...sandbox })).status, 0);
    const { status, output } = await check({
      ...downward,
      ...sandbox,
      'proxy/http/claim.ts': `import { keys } from '../../sandbox/keys.ts';\nexport const claim = keys;\n`,
    });
    assert.equal(status, 1, output);
    assert.deepEqual(section(output, 'Arrows across to a part not below'), [
      'proxy/http -> sandbox',
      '  proxy/http/claim.ts -> sandbox/keys.ts',
    ]);
  });
});
