/**
 * The optional peer packages (`@hono/node-server` and `hono` for the Node adapter, `redis` for the
 * shared store, `graphql`, `hono` and `@hono/node-server` for the sandbox): in a project where one
 * is not installed, the entry that needs it fails with one sentence naming the `npm install`
 * command, and the entries that do not need it still load. Each project is a temporary folder
 * holding a copy of src and the repository's node_modules without the packages under test.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  importWithPeers,
  missingPackageOf,
  MissingPeerDependencyError,
  SANDBOX_PEERS,
} from '../../../../src/proxy/shared/peer-dependency.ts';
import { startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** A project with src copied and every installed package linked in, except `without`. */
async function projectWithout(without: string[]): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-peers-'));
  await cp(join(root, 'src'), join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const link = async (name: string) => {
    if (without.includes(name)) return;
    if (name.startsWith('@') && !name.includes('/')) {
      await mkdir(join(dir, 'node_modules', name), { recursive: true });
      for (const entry of await readdir(join(root, 'node_modules', name))) await link(`${name}/${entry}`);
      return;
    }
    await symlink(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  };
  await mkdir(join(dir, 'node_modules'));
  for (const name of await readdir(join(root, 'node_modules'))) await link(name);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

function run(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
  until?: RegExp,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (until?.test(stderr)) child.kill('SIGTERM');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Imports a module of the project and prints what it exports, or the error's name and message. */
const importing = (path: string) => [
  '--input-type=module',
  '-e',
  `import(${JSON.stringify(path)}).then(
     (m) => console.log('exports', Object.keys(m).sort().join(',')),
     (e) => console.log(e.name + ': ' + e.message))`,
];

describe('missingPackageOf', () => {
  const notFound = (code: string, message: string) => Object.assign(new Error(message), { code });

  it('names the package of a bare specifier that cannot be resolved', () => {
    assert.equal(
      missingPackageOf(notFound('ERR_MODULE_NOT_FOUND', "Cannot find package 'graphql' imported from /app/x.js")),
      'graphql',
    );
    assert.equal(
      missingPackageOf(notFound('MODULE_NOT_FOUND', "Cannot find module 'hono/ws'\nRequire stack:")),
      'hono',
    );
    assert.equal(
      missingPackageOf(notFound('MODULE_NOT_FOUND', "Cannot find module '@hono/node-server/conninfo'")),
      '@hono/node-server',
    );
  });

  it('leaves every other failure alone, a missing file inside an installed package included', async () => {
    const brokenFile = notFound(
      'ERR_MODULE_NOT_FOUND',
      "Cannot find module '/app/node_modules/hono/dist/ws.js' imported from /app/node_modules/hono/dist/index.js",
    );
    assert.equal(missingPackageOf(brokenFile), undefined);
    assert.equal(missingPackageOf(notFound('ERR_MODULE_NOT_FOUND', "Cannot find module './seed.js'")), undefined);
    assert.equal(missingPackageOf(new SyntaxError("Cannot find package 'hono'")), undefined);
    await assert.rejects(
      importWithPeers(() => Promise.reject(brokenFile), SANDBOX_PEERS),
      (error) => error === brokenFile,
    );
    const otherPackage = notFound('ERR_MODULE_NOT_FOUND', "Cannot find package 'left-pad' imported from /app/x.js");
    await assert.rejects(
      importWithPeers(() => Promise.reject(otherPackage), SANDBOX_PEERS),
      (error) => error === otherPackage,
    );
    await assert.rejects(
      importWithPeers(
        () => Promise.reject(notFound('ERR_MODULE_NOT_FOUND', "Cannot find package 'hono' imported from /a.js")),
        SANDBOX_PEERS,
      ),
      (error) => error instanceof MissingPeerDependencyError && error.missing === 'hono',
    );
  });
});

describe('loyalty-widgets/sandbox as a package entry', () => {
  it('exports every value of the sandbox index', async () => {
    const index = await import('../../../../src/sandbox/index.ts');
    const entry = await import('../../../../src/sandbox/entry.ts');
    assert.deepEqual(Object.keys(entry).sort(), Object.keys(index).sort());
  });
});

describe('a project without @hono/node-server', () => {
  let project: Awaited<ReturnType<typeof projectWithout>>;
  let upstream: Upstream;
  before(async () => {
    project = await projectWithout(['@hono/node-server']);
    upstream = await startUpstream();
  });
  after(async () => {
    await upstream.dispose();
    await project.remove();
  });

  it('refuses loyalty-widgets/proxy/node with the command that installs it; the proxy itself loads', async () => {
    const node = await run(project.dir, importing('./src/proxy/node.ts'));
    assert.equal(
      node.stdout.trim(),
      'MissingPeerDependencyError: The Node adapter of the Marketing proxy (loyalty-widgets/proxy/node, loyalty-proxy) ' +
        'needs the packages @hono/node-server, hono; @hono/node-server is not installed. ' +
        'Install with: npm install @hono/node-server hono',
    );
    const proxy = await run(project.dir, importing('./src/proxy/index.ts'));
    assert.match(proxy.stdout, /^exports .*createMarketingProxy/);
  });

  it('stops loyalty-proxy with that one line and exit code 1', async () => {
    const cli = await run(project.dir, ['src/proxy/cli.ts'], {
      MARKETING_API_URL: 'http://127.0.0.1:9/graphql',
      MARKETING_API_KEY: TEST_API_KEY,
      PORT: '0',
    });
    assert.equal(cli.code, 1);
    assert.equal(
      cli.stderr,
      'loyalty-proxy: The Node adapter of the Marketing proxy (loyalty-widgets/proxy/node, loyalty-proxy) ' +
        'needs the packages @hono/node-server, hono; @hono/node-server is not installed. ' +
        'Install with: npm install @hono/node-server hono\n',
    );
  });

  it('runs loyalty-proxy doctor, which needs neither package', async () => {
    const env = { MARKETING_API_URL: upstream.marketingUrl, MARKETING_API_KEY: TEST_API_KEY };
    const doctor = await run(project.dir, ['src/proxy/cli.ts', 'doctor'], env);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.doesNotMatch(doctor.stderr, /not installed/);
  });
});

describe('a project without graphql', () => {
  let project: Awaited<ReturnType<typeof projectWithout>>;
  let upstream: Upstream;
  before(async () => {
    project = await projectWithout(['graphql']);
    upstream = await startUpstream();
  });
  after(async () => {
    await upstream.dispose();
    await project.remove();
  });

  it('runs loyalty-proxy doctor against an upstream that allows introspection', async () => {
    const env = { MARKETING_API_URL: upstream.marketingUrl, MARKETING_API_KEY: TEST_API_KEY };
    const doctor = await run(project.dir, ['src/proxy/cli.ts', 'doctor'], env);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout, /Introspection is available/);
    assert.match(doctor.stdout, /Ready: the proxy can serve every built-in operation/);
  });

  it("lists a host's own operation as not checked, with the command that installs graphql", async () => {
    const script = `const { diagnoseUpstream } = await import('./src/proxy/doctor.ts');
const diagnosis = await diagnoseUpstream({
  upstreamUrl: ${JSON.stringify(upstream.marketingUrl)},
  apiKey: ${JSON.stringify(TEST_API_KEY)},
  operations: { campaignTitle: { kind: 'query', variables: {}, document: 'query campaignTitle { campaigns { items { id } } }' } },
});
console.log(JSON.stringify(diagnosis.findings.filter((finding) => finding.subject === 'campaignTitle')));`;
    const result = await run(project.dir, ['--input-type=module', '-e', script]);
    assert.deepEqual(
      JSON.parse(result.stdout || 'null'),
      [
        {
          level: 'note',
          subject: 'campaignTitle',
          message:
            "campaignTitle (the host's): not checked. Checking a host's own operations (diagnoseUpstream's operations) " +
            'needs the package graphql; graphql is not installed. Install with: npm install graphql',
          blocking: false,
        },
      ],
      result.stderr,
    );
  });
});

describe('a project without redis', () => {
  let project: Awaited<ReturnType<typeof projectWithout>>;
  let upstream: Upstream;
  before(async () => {
    project = await projectWithout(['redis']);
    upstream = await startUpstream();
  });
  after(async () => {
    await upstream.dispose();
    await project.remove();
  });

  it('refuses loyalty-widgets/proxy/redis with the command that installs it', async () => {
    const store = await run(project.dir, importing('./src/proxy/redis-store.ts'));
    assert.equal(
      store.stdout.trim(),
      'MissingPeerDependencyError: The Redis store of the Marketing proxy (loyalty-widgets/proxy/redis, REDIS_URL) ' +
        'needs the package redis; redis is not installed. Install with: npm install redis',
    );
  });

  it('runs loyalty-proxy without REDIS_URL, and stops it with that one line when REDIS_URL is set', async () => {
    const env = { MARKETING_API_URL: upstream.marketingUrl, MARKETING_API_KEY: TEST_API_KEY, PORT: '0' };
    const serving = await run(project.dir, ['src/proxy/cli.ts'], env, /listening on /);
    assert.match(serving.stderr, /loyalty-proxy: listening on http:\/\/\S+\/api\/marketing/);
    const withRedis = await run(project.dir, ['src/proxy/cli.ts'], { ...env, REDIS_URL: 'redis://127.0.0.1:6379' });
    assert.equal(withRedis.code, 1);
    assert.equal(
      withRedis.stderr,
      'loyalty-proxy: The Redis store of the Marketing proxy (loyalty-widgets/proxy/redis, REDIS_URL) ' +
        'needs the package redis; redis is not installed. Install with: npm install redis\n',
    );
  });
});

describe('a project without graphql and hono', () => {
  let project: Awaited<ReturnType<typeof projectWithout>>;
  before(async () => {
    project = await projectWithout(['graphql', 'hono']);
  });
  after(() => project.remove());

  it('refuses loyalty-widgets/sandbox with the command that installs what it needs', async () => {
    const sandbox = await run(project.dir, importing('./src/sandbox/entry.ts'));
    assert.match(
      sandbox.stdout.trim(),
      /^MissingPeerDependencyError: The loyalty sandbox \(loyalty-widgets\/sandbox\) needs the packages graphql, hono, @hono\/node-server; (graphql|hono) is not installed\. Install with: npm install graphql hono @hono\/node-server$/,
    );
  });
});
