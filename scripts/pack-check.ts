/**
 * `npm run pack:check`: the package as merchants install it. Packs it (`npm pack`), installs the
 * tarball into one empty folder per audience (its dependencies from the npm registry), and runs
 * each there:
 * - plain (`npm install loyalty-widgets`): the script tag defines the four elements in headless
 *   Chromium, the Fetch-API proxy answers (as on Workers, Deno, Bun, Next.js), the Node adapter
 *   names the package it lacks, and `npx loyalty-proxy doctor` checks the sandbox;
 * - proxy on Node (+ @hono/node-server hono): `npx loyalty-proxy` serves one request, and again
 *   with redis added, on a throwaway redis-server as its shared store;
 * - sandbox (+ graphql hono @hono/node-server): the sandbox starts and serves its discovery document.
 * Each folder's declared types are checked too (pack-check-types.ts). For each folder it prints what
 * the install pulled in and its size. Not part of `npm test`: it needs the registry.
 * `--tarball FILE` checks a tarball packed elsewhere (e.g. an older commit); `--keep` keeps the folders.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, extname, join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedis, type RunningRedis } from '../test/node/support/redis.ts';
import { launchChromium } from '../test/support/e2e.ts';
import { checkTypes } from './pack-check-types.ts';
import { packedFilename } from './npm-pack.ts';

const TAGS = ['loyalty-signin-button', 'campaign-carousel', 'coupon-claim', 'business-directory'];
const AUDIENCES = [
  { name: 'plain', what: 'script tag and Fetch-API proxy', peers: [] },
  { name: 'proxy-node', what: 'proxy on Node (loyalty-proxy)', peers: ['@hono/node-server', 'hono'] },
  { name: 'proxy-redis', what: 'proxy on Node with Redis', peers: ['@hono/node-server', 'hono', 'redis'] },
  { name: 'sandbox', what: 'sandbox', peers: ['graphql', 'hono', '@hono/node-server'] },
] as const;

const { values: flags } = parseArgs({ options: { tarball: { type: 'string' }, keep: { type: 'boolean' } } });
const work = await mkdtemp(join(tmpdir(), 'loyalty-pack-'));
const children: ChildProcess[] = [];
let env: NodeJS.ProcessEnv = process.env;
let redis: RunningRedis | undefined;

function run(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('close', (code) =>
      code === 0 ? done(out) : fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${err}${out}`)),
    );
  });
}

/** A long-running child; resolves with the first match of `ready` in its output. */
function serve(command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv, ready: RegExp) {
  // Its own process group, so that stopping it also stops what npx started.
  const child = spawn(command, args, {
    cwd,
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  return new Promise<RegExpExecArray>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => fail(new Error(`${command} exited ${code}:\n${output}`)));
  });
}

const supported = (version: string) => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (major === 22 && minor >= 13) || major >= 24;
};

/** package.json's engines (^22.13.0 || >=24); an older Node is replaced by one from the registry, as .ci/run does. */
async function useSupportedNode(): Promise<void> {
  if (supported(process.versions.node)) return;
  const prefix = join(tmpdir(), 'loyalty-pack-node22');
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  await run(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `node-linux-${arch}@^22.13.0`,
    ],
    work,
  );
  env = {
    ...process.env,
    PATH: `${join(prefix, 'node_modules', `node-linux-${arch}`, 'bin')}${delimiter}${process.env.PATH}`,
  };
}

async function pack(): Promise<string> {
  if (flags.tarball) return resolve(flags.tarball);
  // The build (npm pack's prepack) on its own, so that pack's standard output is only its JSON.
  await run('npm', ['run', 'build'], process.cwd());
  const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', work];
  return join(work, packedFilename(await run('npm', packArgs, process.cwd())));
}

async function describeTarball(tarball: string): Promise<void> {
  const listing = (await run('tar', ['-tzvf', tarball], work)).trim().split('\n');
  const files = listing.map((line) => {
    const [, , size = '0', , , ...path] = line.trim().split(/\s+/);
    return { path: path.join(' ').replace(/^package\//, ''), size: Number(size) };
  });
  const groups = new Map<string, { count: number; size: number }>();
  for (const file of files) {
    const key = file.path.endsWith('.map') ? '*.map' : file.path.split('/').slice(0, 2).join('/');
    const group = groups.get(key) ?? { count: 0, size: 0 };
    groups.set(key, { count: group.count + 1, size: group.size + file.size });
  }
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log(
    `\n# ${tarball}\n${kB((await stat(tarball)).size)} packed, ${kB(files.reduce((sum, f) => sum + f.size, 0))} unpacked, ${files.length} files`,
  );
  for (const [key, group] of [...groups].sort())
    console.log(`  ${key.padEnd(28)} ${String(group.count).padStart(4)} files ${kB(group.size).padStart(10)}`);
  // The package's licence, and the licences of what dist/ bundles (lit, oidc-client-ts, jose).
  const missing = ['LICENSE', 'dist/THIRD-PARTY-LICENSES.md'].filter((path) => !files.some((f) => f.path === path));
  if (missing.length) throw new Error(`the tarball lacks ${missing.join(', ')}`);
}

/** What an install pulled in: every package in node_modules (nested ones too), and its size on disk. */
async function describeInstall(dir: string, title: string): Promise<void> {
  const packages = (await run('npm', ['ls', '--all', '--parseable', '--long'], dir).catch((e: Error) => e.message))
    .split('\n')
    .filter((line) => line.includes('node_modules'))
    .map((line) => {
      const [path = '', name = ''] = line.split(':');
      return { path, name };
    });
  const names = [...new Set(packages.map((entry) => entry.name))].sort();
  const top = packages.filter(
    (entry) => entry.path.lastIndexOf('node_modules') === join(dir, 'node_modules').length - 12,
  );
  const size = (await run('du', ['-sh', 'node_modules'], dir)).split('\t')[0];
  console.log(`\n## ${title}: ${names.length} packages (${top.length} at top level), node_modules ${size}`);
  console.log(`  ${names.join(' ')}`);
}

async function install(tarball: string): Promise<Record<string, string>> {
  const dirs: Record<string, string> = {};
  for (const audience of AUDIENCES) {
    const dir = join(work, audience.name);
    await mkdir(dir);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `check-${audience.name}`, private: true }));
    const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...audience.peers];
    await run('npm', args, dir);
    await describeInstall(dir, `${audience.what}: npm install loyalty-widgets ${audience.peers.join(' ')}`.trim());
    dirs[audience.name] = dir;
  }
  return dirs;
}

interface Sandbox {
  connectUrl: string;
  marketingUrl: string;
  apiKey: string;
}

async function checkSandbox(dir: string): Promise<Sandbox> {
  const script = `const { startSandbox } = await import('loyalty-widgets/sandbox');
const s = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: 'sandbox-data' });
console.log('SANDBOX ' + JSON.stringify({ connectUrl: s.connectUrl, marketingUrl: s.marketingUrl, apiKey: s.apiKey }));`;
  const [, json] = await serve('node', ['--input-type=module', '-e', script], dir, {}, /SANDBOX (\{.*\})\n/);
  const sandbox = JSON.parse(json!) as Sandbox;
  const discovery = (await (await fetch(`${sandbox.connectUrl}/.well-known/openid-configuration`)).json()) as {
    issuer: string;
    jwks_uri: string;
  };
  console.log(`sandbox: started from its folder; discovery issuer ${discovery.issuer}, jwks_uri ${discovery.jwks_uri}`);
  return sandbox;
}

/** Serves the folder as a static site and loads a page with the script tag in Chromium. */
async function checkScriptTag(dir: string): Promise<void> {
  const page = `<!doctype html><html lang="en"><body>
<script type="module" src="/node_modules/loyalty-widgets/dist/loyalty-widgets.js"></script>
${TAGS.map((tag) => `<${tag}></${tag}>`).join('\n')}
</body></html>`;
  await writeFile(join(dir, 'index.html'), page);
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer(async (req, res) => {
    const requested = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const path = requested === '/' ? '/index.html' : requested;
    try {
      const body = await readFile(join(dir, path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const failed: string[] = [];
    // The package's own files only: the elements' requests to /api/marketing find no proxy on this host.
    tab.on('response', (response) => {
      const ours = new URL(response.url()).pathname.startsWith('/node_modules/');
      if (ours && response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    tab.on('pageerror', (error) => failed.push(error.message));
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await tab.waitForFunction((tags) => tags.every((tag) => customElements.get(tag)), TAGS, { timeout: 15_000 });
    if (failed.length) throw new Error(`script tag page: ${failed.join('; ')}`);
    console.log(
      `script tag: node_modules/loyalty-widgets/dist/loyalty-widgets.js defined ${TAGS.join(', ')} in Chromium`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

const CAMPAIGNS = JSON.stringify({ operation: 'campaigns', variables: { limit: 2 } });

function summary(status: number, text: string): string {
  const items = (JSON.parse(text) as { data?: { campaigns?: { items?: unknown[] } } }).data?.campaigns?.items;
  if (status !== 200 || !items?.length)
    throw new Error(`expected campaigns, got HTTP ${status}: ${text.slice(0, 300)}`);
  return `HTTP ${status}, ${items.length} campaigns`;
}

/** The Fetch-API handler, as Workers, Deno, Bun or Next.js call it, and the Node adapter's absence. */
async function checkFetchProxy(dir: string, sandbox: Sandbox): Promise<void> {
  const script = `const { createMarketingProxy } = await import('loyalty-widgets/proxy');
const proxy = createMarketingProxy({ upstreamUrl: ${JSON.stringify(sandbox.marketingUrl)}, apiKey: ${JSON.stringify(sandbox.apiKey)}, logger: () => {} });
const response = await proxy(new Request('http://shop.example/api/marketing', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(CAMPAIGNS)} }));
console.log(JSON.stringify({ status: response.status, text: await response.text() }));
await import('loyalty-widgets/proxy/node').then(() => console.log('loaded'), (e) => console.log(e.message));`;
  const [first, second] = (await run('node', ['--input-type=module', '-e', script], dir)).trim().split('\n');
  const { status, text } = JSON.parse(first!) as { status: number; text: string };
  console.log(`Fetch-API proxy: loyalty-widgets/proxy answered ${summary(status, text)}`);
  console.log(`loyalty-widgets/proxy/node without its peers: ${second}`);
}

/** `npx loyalty-proxy doctor` where only loyalty-widgets is installed (it needs no optional peer). */
async function checkDoctor(dir: string, sandbox: Sandbox): Promise<void> {
  const report = await run('npx', ['loyalty-proxy', 'doctor'], dir, {
    MARKETING_API_URL: sandbox.marketingUrl,
    MARKETING_API_KEY: sandbox.apiKey,
  });
  const verdict = report.trim().split('\n').at(-1) ?? '';
  if (!verdict.startsWith('Ready')) throw new Error(`loyalty-proxy doctor:\n${report}`);
  console.log(`proxy doctor: npx loyalty-proxy doctor with only loyalty-widgets installed: ${verdict}`);
}

/** `npx loyalty-proxy` in the folder; with `redisUrl`, on the shared Redis store. */
async function checkProxyCli(dir: string, sandbox: Sandbox, redisUrl?: string): Promise<void> {
  const [line, url] = await serve(
    'npx',
    ['loyalty-proxy'],
    dir,
    {
      MARKETING_API_URL: sandbox.marketingUrl,
      MARKETING_API_KEY: sandbox.apiKey,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    },
    /listening on (http:\/\/\S+\/api\/marketing).*\n/,
  );
  if (redisUrl && !line.includes('(shared Redis store)')) throw new Error(`not on the Redis store: ${line}`);
  const response = await fetch(url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: CAMPAIGNS,
  });
  const store = redisUrl ? ' on the shared Redis store' : '';
  console.log(`proxy CLI: npx loyalty-proxy${store} answered ${summary(response.status, await response.text())}`);
}

try {
  await useSupportedNode();
  console.log(
    `Node ${(await run('node', ['--version'], work)).trim()}, npm ${(await run('npm', ['--version'], work)).trim()}`,
  );
  const tarball = await pack();
  await describeTarball(tarball);
  const dirs = await install(tarball);
  console.log('');
  await checkTypes(dirs);
  const sandbox = await checkSandbox(dirs.sandbox!);
  await checkScriptTag(dirs.plain!);
  await checkFetchProxy(dirs.plain!, sandbox);
  await checkDoctor(dirs.plain!, sandbox);
  await checkProxyCli(dirs['proxy-node']!, sandbox);
  redis = await startRedis();
  await checkProxyCli(dirs['proxy-redis']!, sandbox, redis.url);
  console.log('\npack check passed');
} catch (error) {
  console.error(`\npack check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await redis?.stop();
  for (const child of children) if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  if (flags.keep) console.log(`kept ${work}`);
  else await rm(work, { recursive: true, force: true });
}
