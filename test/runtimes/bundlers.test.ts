/**
 * The README's proxy recipes, built by each host's own bundler and served by its runtime, in a
 * merchant's project where only `loyalty-widgets` is installed from its packed tarball (Next.js adds
 * next and React): no optional peer (graphql, hono, @hono/node-server, redis) resolves there, so an
 * entry that reaches one fails its build here as it would for a merchant. Each build's output answers
 * a POST /api/marketing from the real sandbox upstream. Prints host | bundler | build | POST.
 * `LOYALTY_TARBALL=file.tgz` checks a tarball packed elsewhere (e.g. from an older commit).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startUpstream, TEST_API_KEY, type Upstream } from '../node/support/proxy-server.ts';
import { call } from './support/client.ts';
import {
  bin,
  freePort,
  hostEnv,
  installProjects,
  nextBin,
  run,
  serveStep,
  WORKER_SETTINGS,
  wranglerDev,
  writeWorkerEnv,
  type Command,
  type HostSettings,
  type ProjectKind,
} from './support/hosts.ts';
import { ROOT } from './support/merchant.ts';

interface Recipe {
  host: string;
  bundler: string;
  project: ProjectKind;
  /** Each step must exit 0; none: the runtime loads the package from node_modules itself. */
  build: (dir: string) => Command[];
  serve: (port: number, dir: string) => Command;
}

/** Serves a file of the project with Deno or Bun, on `port`. */
const runtime =
  (command: 'deno' | 'bun', file: string) =>
  (port: number, dir: string): Command => ({
    command: bin(command),
    args:
      command === 'deno'
        ? ['run', '--no-lock', '--allow-net=127.0.0.1,localhost', '--allow-env', '--allow-read', join(dir, file)]
        : ['run', join(dir, file)],
    cwd: dir,
    env: { PORT: String(port) },
  });
const next =
  (...args: string[]) =>
  (dir: string) => ({ command: process.execPath, args: [nextBin(dir), ...args], cwd: dir });
const nextStart = (port: number, dir: string) => next('start', '--port', String(port), '--hostname', '127.0.0.1')(dir);

const RECIPES: Recipe[] = [
  {
    host: 'Cloudflare Workers',
    bundler: 'wrangler deploy --dry-run',
    project: 'fetch',
    build: (dir) => [
      {
        command: bin('wrangler'),
        args: ['deploy', 'worker.ts', '--dry-run', '--outdir', 'out/wrangler', ...WORKER_SETTINGS],
        cwd: dir,
      },
    ],
    serve: (port, dir) => wranglerDev(join(dir, 'out/wrangler/worker.js'), port, dir, '--no-bundle'),
  },
  {
    host: 'Cloudflare Workers',
    bundler: 'wrangler dev',
    project: 'fetch',
    build: () => [],
    serve: (port, dir) => wranglerDev(join(dir, 'worker.ts'), port, dir),
  },
  {
    host: 'Cloudflare Workers',
    bundler: 'vite build --ssr (noExternal)',
    project: 'fetch',
    build: (dir) => [{ command: bin('vite'), args: ['build', '--config', 'vite.worker.mjs'], cwd: dir }],
    serve: (port, dir) => wranglerDev(join(dir, 'out/vite/worker.js'), port, dir, '--no-bundle'),
  },
  {
    host: 'Next.js',
    bundler: 'Turbopack (next build)',
    project: 'next',
    build: (dir) => [next('build')(dir)],
    serve: nextStart,
  },
  {
    host: 'Next.js',
    bundler: 'webpack (next build --webpack)',
    project: 'next',
    build: (dir) => [next('build', '--webpack')(dir)],
    serve: nextStart,
  },
  {
    host: 'Deno',
    bundler: 'esbuild --bundle --platform=node',
    project: 'fetch',
    build: (dir) => [
      {
        command: bin('esbuild'),
        args: ['deno.ts', '--bundle', '--platform=node', '--format=esm', '--outfile=out/esbuild/deno.js'],
        cwd: dir,
      },
    ],
    serve: runtime('deno', 'out/esbuild/deno.js'),
  },
  {
    host: 'Deno',
    bundler: 'deno bundle',
    project: 'fetch',
    build: (dir) => [
      {
        command: bin('deno'),
        args: ['bundle', '--no-lock', 'deno.ts', '-o', 'out/deno/deno.js'],
        cwd: dir,
        // deno bundle runs esbuild, which Deno fetches from the npm registry once (then from its cache),
        // trusting the system's certificate authorities as npm does.
        env: { DENO_TLS_CA_STORE: 'system' },
      },
    ],
    serve: runtime('deno', 'out/deno/deno.js'),
  },
  {
    host: 'Deno',
    bundler: 'none (deno run)',
    project: 'fetch',
    build: () => [],
    serve: runtime('deno', 'deno.ts'),
  },
  {
    host: 'Bun',
    bundler: 'bun build',
    project: 'fetch',
    build: (dir) => [
      { command: bin('bun'), args: ['build', 'bun.ts', '--target=bun', '--outfile=out/bun/bun.js'], cwd: dir },
    ],
    serve: runtime('bun', 'out/bun/bun.js'),
  },
  {
    host: 'Bun',
    bundler: 'none (bun run)',
    project: 'fetch',
    build: () => [],
    serve: runtime('bun', 'bun.ts'),
  },
];

interface Row {
  host: string;
  bundler: string;
  build: string;
  post: string;
}

/** The line of a failed step's output that says what went wrong (a module not found first), without colours. */
function firstError(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const line =
    lines.find((candidate) => /could not (resolve|find)|can't resolve|cannot find|not found/i.test(candidate)) ??
    lines.find((candidate) => /error/i.test(candidate)) ??
    lines[0];
  return (line ?? '').trim().slice(0, 140);
}

function table(rows: Row[]): string {
  const header: Row = { host: 'host', bundler: 'bundler', build: 'build', post: 'POST /api/marketing' };
  const columns = ['host', 'bundler', 'build', 'post'] as const;
  const widths = columns.map((column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
  const line = (row: Row) => `| ${columns.map((column, index) => row[column].padEnd(widths[index]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

describe('the README proxy recipes, built by each host with only loyalty-widgets installed', () => {
  let sandbox: Upstream;
  let settings: HostSettings;
  let merchants: Awaited<ReturnType<typeof installProjects>>;
  const rows: Row[] = [];

  before(async () => {
    sandbox = await startUpstream();
    settings = {
      MARKETING_API_URL: sandbox.marketingUrl,
      MARKETING_API_KEY: TEST_API_KEY,
      ALLOWED_ORIGINS: 'https://shop.example',
      PER_ADDRESS_LIMIT: '1000',
      CACHE_TTL_SECONDS: '30',
    };
    merchants = await installProjects(RECIPES.map((recipe) => recipe.project));
    for (const project of Object.values(merchants.projects)) await writeWorkerEnv(project.dir, settings);
    // A Worker built by Vite: everything bundled (as the Workers runtime needs), for the webworker target.
    await writeFile(
      join(merchants.projects.fetch!.dir, 'vite.worker.mjs'),
      `export default {
  ssr: { noExternal: true, target: 'webworker' },
  build: { ssr: 'worker.ts', outDir: 'out/vite', rollupOptions: { output: { entryFileNames: 'worker.js' } } },
};
`,
    );
  });

  after(async () => {
    process.stdout.write(`\n${table(rows)}\n\n`);
    await sandbox?.dispose();
    await merchants?.remove();
  });

  it("the Worker's and Bun's host files type-check against the shipped declarations", async () => {
    const dir = merchants.projects.fetch!.dir;
    // Deno checks its own host (deno check) and Next.js its route (next build); these two have no such step.
    const config = {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2023', 'DOM'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['worker.ts', 'bun.ts'],
    };
    await writeFile(join(dir, 'tsconfig.hosts.json'), JSON.stringify(config));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    await run({ command: process.execPath, args: [tsc, '-p', 'tsconfig.hosts.json'], cwd: dir }, hostEnv({}));
  });

  it('npx loyalty-proxy doctor runs with only loyalty-widgets installed', async () => {
    const dir = merchants.projects.fetch!.dir;
    const { bin: cli } = JSON.parse(await readFile(join(dir, 'node_modules/loyalty-widgets/package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    const doctor = {
      command: process.execPath,
      args: [join(dir, 'node_modules/loyalty-widgets', cli['loyalty-proxy']!), 'doctor'],
      cwd: dir,
    };
    const report = await run(
      doctor,
      hostEnv({ MARKETING_API_URL: sandbox.marketingUrl, MARKETING_API_KEY: TEST_API_KEY }),
    );
    assert.match(report, /Introspection is available/);
    assert.match(report, /Ready: the proxy can serve every built-in operation\./);
  });

  for (const recipe of RECIPES) {
    it(`${recipe.host}: ${recipe.bundler}`, async () => {
      const row: Row = { host: recipe.host, bundler: recipe.bundler, build: '–', post: '–' };
      rows.push(row);
      const dir = merchants.projects[recipe.project]!.dir;
      const steps = recipe.build(dir);
      try {
        for (const step of steps) await run(step, hostEnv({}));
        row.build = steps.length ? 'ok' : 'by the runtime at start';
      } catch (error) {
        row.build = `fails: ${firstError(error)}`;
        throw error;
      }
      const port = await freePort();
      let host;
      try {
        host = await serveStep(recipe.serve(port, dir), port, settings);
      } catch (error) {
        row.post = `no answer: ${firstError(error)}`;
        throw error;
      }
      try {
        const reply = await call(host.url, { body: { operation: 'campaigns', variables: { limit: 2 } } });
        row.post = String(reply.status);
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.body.data.campaigns.items.length, 2, reply.text);
      } finally {
        await host.stop();
      }
    });
  }
});
