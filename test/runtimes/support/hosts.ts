/**
 * Each runtime the proxy is deployed to, started the way a merchant starts it, in a merchant's project
 * folder where `loyalty-widgets` is installed from its packed tarball (merchant.ts), with the runtime
 * binaries the npm registry ships (`node_modules/.bin`): a missing binary fails the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installMerchant, packedTarball, ROOT, type MerchantProject } from './merchant.ts';

const HOSTS = join(ROOT, 'test/runtimes/hosts');
export const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
/** Next.js runs from the project's own copy, as `npx next` would, so the app and Next share one React. */
export const nextBin = (dir: string) => join(dir, 'node_modules/next/dist/bin/next');

/** The kinds of merchant project the hosts run in, and what each installs beside loyalty-widgets. */
export const PROJECTS = {
  /** Workers, Deno, Bun: nothing else. */
  fetch: [],
  next: ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/node'],
  node: ['@hono/node-server', 'hono', 'express'],
} satisfies Record<string, string[]>;
export type ProjectKind = keyof typeof PROJECTS;

/** Copies a kind of project's host files into a merchant's project folder. */
export async function addHostFiles(dir: string, kind: ProjectKind): Promise<void> {
  const next = join(HOSTS, 'next');
  if (kind === 'next') {
    await cp(next, dir, { recursive: true });
    for (const file of ['options.mjs', 'options.d.mts']) await cp(join(HOSTS, file), join(dir, file));
  } else {
    await cp(HOSTS, dir, { recursive: true, filter: (source) => !source.startsWith(next) });
  }
}

/** Packs the package once and installs a merchant's project of each kind, host files included. */
export async function installProjects(
  kinds: Iterable<ProjectKind>,
): Promise<{ projects: Partial<Record<ProjectKind, MerchantProject>>; remove(): Promise<void> }> {
  const packDir = await mkdtemp(join(tmpdir(), 'loyalty-pack-'));
  const projects: Partial<Record<ProjectKind, MerchantProject>> = {};
  const remove = async () => {
    for (const project of Object.values(projects)) await project.remove();
    await rm(packDir, { recursive: true, force: true });
  };
  try {
    const tarball = await packedTarball(packDir);
    for (const kind of new Set(kinds)) {
      projects[kind] = await installMerchant(tarball, PROJECTS[kind]);
      await addHostFiles(projects[kind].dir, kind);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { projects, remove };
}

export interface HostSettings {
  MARKETING_API_URL: string;
  MARKETING_API_KEY: string;
  ALLOWED_ORIGINS: string;
  PER_ADDRESS_LIMIT: string;
  CACHE_TTL_SECONDS: string;
}

export interface RunningHost {
  /** Where the proxy is mounted. */
  url: string;
  /** Everything the host printed so far (its access log included). */
  output(): string;
  stop(): Promise<void>;
}

export interface Command {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface RuntimeHost {
  name: string;
  /** The Fetch runtimes need only loyalty-widgets; the Node adapter needs its peers. */
  project: ProjectKind;
  /** Steps before the server starts (a build, a type check); each must exit 0. */
  prepare?(workDir: string): Command[];
  serve(port: number, workDir: string): Command;
  /** What the proxy's own checks cannot see in this runtime, said by the case that is skipped. */
  noClientAddress?: string;
}

/** Runtime binaries stay quiet and offline: no telemetry, no update checks, no Request.cf download. */
export const QUIET = {
  NEXT_TELEMETRY_DISABLED: '1',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  DENO_NO_UPDATE_CHECK: '1',
  NO_COLOR: '1',
};

export const RUNTIMES: RuntimeHost[] = [
  {
    name: 'Node http',
    project: 'node',
    serve: (port, dir) => ({
      command: process.execPath,
      args: [join(dir, 'node-http.mjs')],
      env: { PORT: String(port) },
    }),
  },
  {
    name: 'Express 5',
    project: 'node',
    serve: (port, dir) => ({
      command: process.execPath,
      args: [join(dir, 'express.mjs')],
      env: { PORT: String(port) },
    }),
  },
  {
    name: 'Next.js route handler',
    project: 'next',
    // Built without the key (Turbopack, Next's default).
    prepare: (dir) => [{ command: process.execPath, args: [nextBin(dir), 'build'], cwd: dir }],
    serve: (port, dir) => ({
      command: process.execPath,
      args: [nextBin(dir), 'start', '--port', String(port), '--hostname', '127.0.0.1'],
      cwd: dir,
    }),
    noClientAddress:
      'a Next.js route handler is given no client address (README: trustProxy behind a proxy that sets X-Forwarded-For)',
  },
  {
    name: 'Bun',
    project: 'fetch',
    serve: (port, dir) => ({
      command: bin('bun'),
      args: ['run', join(dir, 'bun.ts')],
      cwd: dir,
      env: { PORT: String(port) },
    }),
  },
  {
    name: 'Deno',
    project: 'fetch',
    prepare: (dir) => [{ command: bin('deno'), args: ['check', '--no-lock', join(dir, 'deno.ts')], cwd: dir }],
    serve: (port, dir) => ({
      command: bin('deno'),
      args: ['run', '--no-lock', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', join(dir, 'deno.ts')],
      cwd: dir,
      env: { PORT: String(port) },
    }),
  },
  {
    name: 'workerd (wrangler dev)',
    project: 'fetch',
    serve: (port, dir) => wranglerDev(join(dir, 'worker.ts'), port, dir),
  },
];

/** `wrangler dev` serving a Worker's file (its own bundle of it, or with `--no-bundle` one built before). */
export function wranglerDev(entry: string, port: number, dir: string, ...extra: string[]): Command {
  return {
    command: bin('wrangler'),
    args: [
      'dev',
      entry,
      ...WORKER_SETTINGS,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      '0',
      '--env-file',
      join(dir, 'worker.env'),
      '--persist-to',
      join(dir, 'state'),
      '--show-interactive-dev-session=false',
      ...extra,
    ],
    cwd: dir,
  };
}

/** What a merchant's wrangler.toml would say. */
export const WORKER_SETTINGS = ['--name', 'loyalty-proxy', '--compatibility-date', '2025-09-01'];

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export function run(step: Command, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(step.command, step.args, {
      cwd: step.cwd ?? ROOT,
      env: { ...env, ...step.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolveRun(output)
        : reject(new Error(`${step.command} ${step.args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

async function waitUntilServing(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.pid === undefined)
      throw new Error(`The host exited (${child.exitCode}) before serving:\n${output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`The host did not serve ${url} within ${timeoutMs} ms:\n${output()}`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
}

/** The environment of a host process: the settings, no inherited secrets. */
export function hostEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...QUIET, ...extra };
}

/** Writes the settings where wrangler reads them (not .env: next build would read the key from it). */
export async function writeWorkerEnv(dir: string, settings: HostSettings): Promise<void> {
  const envFile = Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
  await writeFile(join(dir, 'worker.env'), `${envFile}\n`);
}

/** Starts `step` as a server on `port` and waits until it answers HTTP. */
export async function serveStep(step: Command, port: number, settings: HostSettings): Promise<RunningHost> {
  const child = spawn(step.command, step.args, {
    cwd: step.cwd ?? ROOT,
    env: hostEnv({ ...settings, ...step.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so that stopping it stops what it started (workerd under wrangler)
  });
  let output = '';
  // A runtime binary that is missing fails here, loudly: never a skip.
  child.once('error', (error) => (output += `\n${step.command}: ${error.message}\n`));
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // the group has already gone
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((done) => child.once('exit', done));
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    await waitUntilServing(origin, child, () => output, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${origin}/api/marketing`, output: () => output, stop };
}

/**
 * Builds (prepare) and starts a runtime's host in `dir`, a merchant's project folder holding the host
 * files (addHostFiles). Builds and checks run without the key: it exists only where the proxy serves.
 */
export async function startHost(runtime: RuntimeHost, dir: string, settings: HostSettings): Promise<RunningHost> {
  await writeWorkerEnv(dir, settings);
  for (const step of runtime.prepare?.(dir) ?? []) await run(step, hostEnv({}));
  const port = await freePort();
  return serveStep(runtime.serve(port, dir), port, settings);
}
