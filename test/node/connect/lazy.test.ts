/**
 * The sign-in machinery (oidc-client-ts, jose, the UserManager subclass) must stay out of what a page
 * loads first: the element and the connect entry reach it only through a dynamic import().
 * Bundles the real sources with esbuild (code splitting on) and walks the static import graph.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, type Metafile } from 'esbuild';

const HEAVY = /node_modules\/(oidc-client-ts|jose)\/|src\/connect\/(client|connect-user-manager|id-token|profile)\.ts$/;

async function graph(entry: string): Promise<{ first: Set<string>; lazy: Set<string> }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['lit', 'lit/*', '@lit/*'],
    tsconfig: 'tsconfig.json',
  });
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  const entryOut = Object.keys(outputs).find((key) => outputs[key]!.entryPoint === entry)!;
  const firstOutputs = new Set<string>();
  const lazyOutputs = new Set<string>();
  const walk = (key: string, into: Set<string>): void => {
    if (into.has(key) || !outputs[key]) return;
    into.add(key);
    for (const imported of outputs[key]!.imports) {
      if (imported.kind === 'import-statement') walk(imported.path, into);
      else if (imported.kind === 'dynamic-import') walk(imported.path, lazyOutputs);
    }
  };
  walk(entryOut, firstOutputs);
  const inputsOf = (keys: Set<string>): Set<string> =>
    new Set([...keys].flatMap((key) => Object.keys(outputs[key]!.inputs)));
  return { first: inputsOf(firstOutputs), lazy: inputsOf(lazyOutputs) };
}

for (const entry of ['src/elements/loyalty-signin-button/index.ts', 'src/connect/index.ts']) {
  describe(`${entry} loads the sign-in machinery lazily`, () => {
    it('has no static path to oidc-client-ts, jose or the UserManager subclass', async () => {
      const { first, lazy } = await graph(entry);
      assert.deepEqual(
        [...first].filter((input) => HEAVY.test(input)),
        [],
      );
      assert.ok(
        [...lazy].some((input) => input.includes('node_modules/oidc-client-ts/')),
        'oidc-client-ts is in a lazy chunk',
      );
      assert.ok(
        [...lazy].some((input) => input.includes('node_modules/jose/')),
        'jose is in a lazy chunk',
      );
      assert.ok(
        [...lazy].some((input) => input.endsWith('src/connect/connect-user-manager.ts')),
        'the UserManager subclass is in a lazy chunk',
      );
    });
  });
}
