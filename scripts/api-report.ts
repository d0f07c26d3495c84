/**
 * The API report: what every entry point of package.json "exports" gives its users (types and
 * functions), written by API Extractor to api/<entry>.public.api.md from the declarations that the
 * package ships (what is marked @internal is left out of both). `npm run api` rewrites the reports; `--check` writes nothing and fails when the public surface
 * differs from the committed reports (an export added, removed or changed), so a change to it is
 * always a visible change in review. Configs: api/extractor/<entry>.json, sharing api/extractor/base.json.
 */
import { CompilerState, Extractor, ExtractorConfig, type IConfigFile } from '@microsoft/api-extractor';
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const check = process.argv.includes('--check');
const root = resolve(import.meta.dirname, '..');
const configFolder = join(root, 'api', 'extractor');
const run = promisify(execFile);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The declaration files package.json "exports" points at, `*` expanded over the element folders. */
async function exportedDeclarations(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const elements = (await readdir(join(root, 'src', 'elements'), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && entry.name !== 'internal')
    .map((entry) => entry.name);
  return Object.values(manifest.exports).flatMap((target) => {
    const types = typeof target === 'string' ? undefined : target.types;
    if (!types) return [];
    const paths = types.includes('*') ? elements.map((tag) => types.replace('*', tag)) : [types];
    return paths.map((path) => join(root, path));
  });
}

// Declarations go to a scratch folder beside the build's, so a build's dist/types and dist/server are
// left alone; inside the project, the file names that warnings quote in a report are the same on every machine.
const scratch = join(root, 'dist', 'api-declarations');
await rm(scratch, { recursive: true, force: true });
const started = Date.now();
try {
  await Promise.all([
    run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', join(scratch, 'types')], { cwd: root }),
    run(
      process.execPath,
      [tsc, '-p', 'tsconfig.server.json', '--emitDeclarationOnly', '--outDir', join(scratch, 'server')],
      { cwd: root },
    ),
  ]);
  const toScratch = (path: string): string =>
    path
      .replace(join(root, 'dist', 'types'), join(scratch, 'types'))
      .replace(join(root, 'dist', 'server'), join(scratch, 'server'));

  const configs = (await readdir(configFolder))
    .filter((name) => name.endsWith('.json') && name !== 'base.json')
    .map((name) => {
      const path = join(configFolder, name);
      const config: IConfigFile = ExtractorConfig.loadFile(path);
      const entry = config.mainEntryPointFilePath.replace('<projectFolder>', root);
      return { name, path, config: { ...config, mainEntryPointFilePath: entry }, entry };
    });

  const unreported = (await exportedDeclarations()).filter((path) => !configs.some((c) => c.entry === path));
  if (unreported.length > 0) {
    throw new Error(
      `package.json exports declarations that no api/extractor/*.json reports:\n  ${unreported.join('\n  ')}`,
    );
  }

  const prepared = configs.map(({ path, config }) => {
    const overrides = config.compiler?.overrideTsconfig as { files?: string[] } | undefined;
    return ExtractorConfig.prepare({
      configObjectFullPath: path,
      packageJsonFullPath: join(root, 'package.json'),
      configObject: {
        ...config,
        mainEntryPointFilePath: toScratch(config.mainEntryPointFilePath),
        compiler: {
          ...config.compiler,
          overrideTsconfig: {
            ...overrides,
            files: (overrides?.files ?? []).map((file) => toScratch(join(root, file))),
          },
        },
        apiReport: { ...config.apiReport!, reportTempFolder: join(scratch, 'report') },
      },
    });
  });
  // One TypeScript program for every entry point instead of one each.
  const compilerState = CompilerState.create(prepared[0]!, {
    additionalEntryPoints: prepared.map((config) => config.mainEntryPointFilePath),
  });

  const changed: string[] = [];
  let problems = 0;
  for (const config of prepared) {
    const result = Extractor.invoke(config, {
      localBuild: !check,
      compilerState,
      messageCallback: (message) => {
        // The preamble and "report changed" notes are summed up below, once, instead of per entry.
        if (message.category === 'console') message.handled = true;
      },
    });
    problems += result.errorCount;
    if (result.apiReportChanged) changed.push(...config.reportConfigs.map(({ fileName }) => fileName));
  }

  // A report whose entry point is gone describes nothing: removed, or (checking) counted as a change.
  const expected = new Set(prepared.flatMap((config) => config.reportConfigs.map(({ fileName }) => fileName)));
  for (const name of await readdir(join(root, 'api'))) {
    if (!name.endsWith('.api.md') || expected.has(name)) continue;
    if (check) changed.push(name);
    else await unlink(join(root, 'api', name));
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (check && changed.length > 0) {
    for (const report of changed) {
      // git diff exits 1 when the files differ: that is the expected case here.
      const fresh = relative(root, join(scratch, 'report', report));
      const diff = await run('git', ['diff', '--no-index', '--color=never', join('api', report), fresh], {
        cwd: root,
      }).catch((error: { stdout?: string }) => error.stdout ?? '');
      console.error(typeof diff === 'string' ? diff : diff.stdout);
    }
    console.error(
      `The public API changed: ${changed.map((name) => `api/${name}`).join(', ')} no longer describes it.\n` +
        'If the change is meant, run `npm run api` and commit the reports with it; otherwise, stop exporting it ' +
        '(or mark it @internal).',
    );
    process.exitCode = 1;
  } else if (problems > 0) {
    process.exitCode = 1;
  } else {
    console.log(
      check
        ? `API reports match the public surface of ${prepared.length} entry points (${seconds} s).`
        : `API reports written for ${prepared.length} entry points${changed.length ? `, ${changed.length} changed` : ''} (${seconds} s).`,
    );
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
