/**
 * Each runtime the proxy is deployed to, started the way a merchant starts it, from the runtime
 * binaries the npm registry ships (`node_modules/.bin`): a missing binary fails the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const HOSTS = join(ROOT, 'test/runtimes/hosts');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

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

interface Command {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface RuntimeHost {
  name: string;
  /** Steps before the server starts (a build, a type check); each must exit 0. */
  prepare?(workDir: string): Command[];
  serve(port: number, workDir: string): Command;
  /** What the proxy's own checks cannot see in this runtime, said by the case that is skipped. */
  noClientAddress?: string;
}

/** Runtime binaries stay quiet and offline: no telemetry, no update checks, no Request.cf download. */
const QUIET = {
  NEXT_TELEMETRY_DISABLED: '1',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  DENO_NO_UPDATE_CHECK: '1',
  NO_COLOR: '1',
};

export const RUNTIMES: RuntimeHost[] = [
  {
    name: 'Node http',
    serve: (port) => ({ command: process.execPath, args: [join(HOSTS, 'node-http.mjs')], env: { PORT: String(port) } }),
  },
  {
    name: 'Express 5',
    serve: (port) => ({ command: process.execPath, args: [join(HOSTS, 'express.mjs')], env: { PORT: String(port) } }),
  },
  {
    name: 'Next.js route handler',
    // A temporary app inside the repository (so `next` and `loyalty-widgets` resolve), built without the key.
    prepare: (dir) => [{ command: bin('next'), args: ['build'], cwd: dir }],
    serve: (port, dir) => ({
      command: bin('next'),
      args: ['start', '--port', String(port), '--hostname', '127.0.0.1'],
      cwd: dir,
    }),
    noClientAddress:
      'a Next.js route handler is given no client address (README: trustProxy behind a proxy that sets X-Forwarded-For)',
  },
  {
    name: 'Bun',
    serve: (port) => ({ command: bin('bun'), args: ['run', join(HOSTS, 'bun.ts')], env: { PORT: String(port) } }),
  },
  {
    name: 'Deno',
    prepare: () => [{ command: bin('deno'), args: ['check', '--no-lock', join(HOSTS, 'deno.ts')] }],
    serve: (port) => ({
      command: bin('deno'),
      args: ['run', '--no-lock', '--allow-net=127.0.0.1', '--allow-env', join(HOSTS, 'deno.ts')],
      env: { PORT: String(port) },
    }),
  },
  {
    name: 'workerd (wrangler dev)',
    serve: (port, dir) => ({
      command: bin('wrangler'),
      args: [
        'dev',
        join(HOSTS, 'worker.ts'),
        '--name',
        'loyalty-proxy',
        '--compatibility-date',
        '2025-09-01',
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
      ],
      cwd: dir,
    }),
  },
];

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

function run(step: Command, env: NodeJS.ProcessEnv): Promise<string> {
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
function hostEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...QUIET, ...extra };
}

export async function startHost(runtime: RuntimeHost, settings: HostSettings): Promise<RunningHost> {
  // A work folder inside the repository (test-results/ is ignored by git), where Next.js resolves `next`
  // and `loyalty-widgets`: the Next.js app with options.mjs beside it, wrangler's worker.env and state (not .env: next build would read the key from it).
  await mkdir(join(ROOT, 'test-results/runtimes'), { recursive: true });
  const workDir = await mkdtemp(join(ROOT, 'test-results/runtimes/host-'));
  await cp(join(HOSTS, 'next'), workDir, { recursive: true });
  for (const file of ['options.mjs', 'options.d.mts']) await cp(join(HOSTS, file), join(workDir, file));
  const envFile = Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
  await writeFile(join(workDir, 'worker.env'), `${envFile}\n`);
  // Builds and checks run without the key: it exists only where the proxy serves.
  try {
    for (const step of runtime.prepare?.(workDir) ?? []) await run(step, hostEnv({}));
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }

  const port = await freePort();
  const step = runtime.serve(port, workDir);
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
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(origin, child, () => output, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${origin}/api/marketing`, output: () => output, stop };
}
