/**
 * The README's recipes for several instances on one shared store, run as they are printed: the code
 * blocks are read from src/proxy/README.md when the suite runs, so the text cannot drift from what
 * runs. In a merchant's project holding only the packed package: the Workers recipe (its
 * src/index.ts, the first Worker's wrangler.jsonc and the second one's, bound to the first one's
 * Durable Object class) as two `wrangler dev`, and the Deno recipe (its file, and its command from
 * the block's first line) as two Deno processes on one KV file. Each pair answers 200 concurrent
 * coupon requests under one Idempotency-Key, spread over both, with one coupon minted upstream.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startUpstream, TEST_API_KEY, type Upstream } from '../node/support/proxy-server.ts';
import { requestCoupon } from './support/client.ts';
import { bin, freePort, serveStep, type Command, type HostSettings, type RunningHost } from './support/hosts.ts';
import { installMerchant, packedTarball, ROOT, type MerchantProject } from './support/merchant.ts';

const README = join(ROOT, 'src/proxy/README.md');
const CONCURRENT_CLAIMS = 200;
const CAMPAIGN = 'camp-greenleaf-veg-box';

/** The README's fenced code blocks, each as printed (without its fences). */
async function readmeBlocks(): Promise<string[]> {
  const text = await readFile(README, 'utf8');
  return [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** The one block whose first line starts with `start`: a recipe is found by the comment it opens with. */
function blockStarting(blocks: readonly string[], start: string): string {
  const found = blocks.filter((block) => block.startsWith(start));
  if (found.length !== 1) throw new Error(`src/proxy/README.md: ${found.length} code blocks start with "${start}"`);
  return found[0]!;
}

/** Writes `text` at `path` under `dir`, making its folders. */
async function put(dir: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

let sandbox: Upstream;
let project: MerchantProject;
let packDir: string;
let blocks: string[];
/** The settings every instance is given: the sandbox and its key. */
let settings: HostSettings;

before(async () => {
  blocks = await readmeBlocks();
  sandbox = await startUpstream();
  settings = {
    MARKETING_API_URL: sandbox.marketingUrl,
    MARKETING_API_KEY: TEST_API_KEY,
    ALLOWED_ORIGINS: '',
    PER_ADDRESS_LIMIT: '',
    CACHE_TTL_SECONDS: '',
  };
  packDir = await mkdtemp(join(tmpdir(), 'loyalty-pack-'));
  project = await installMerchant(await packedTarball(packDir));
});
after(async () => {
  await project?.remove();
  if (packDir) await rm(packDir, { recursive: true, force: true });
  await sandbox?.dispose();
});

/** Starts each instance in turn (the second may need the first), on a free port each. */
async function startAll(steps: Array<(port: number) => Command>): Promise<RunningHost[]> {
  const running: RunningHost[] = [];
  try {
    for (const step of steps) {
      const port = await freePort();
      running.push(await serveStep(step(port), port, settings));
    }
  } catch (error) {
    await Promise.all(running.map((host) => host.stop()));
    throw error;
  }
  return running;
}

/** 200 concurrent claims under one key, alternating between the two instances: one coupon, in every answer. */
async function claimOnceOverBoth(hosts: readonly RunningHost[], from: string): Promise<void> {
  const key = randomUUID();
  const minted = sandbox.stats().couponsMinted;
  const replies = await Promise.all(
    Array.from({ length: CONCURRENT_CLAIMS }, (_, index) =>
      requestCoupon(hosts[index % 2]!.url, CAMPAIGN, { key, from }),
    ),
  );
  const refused = replies.filter((reply) => reply.status !== 200);
  assert.deepEqual(
    refused.map((reply) => reply.status),
    [],
    refused[0]?.text,
  );
  assert.equal(sandbox.stats().couponsMinted - minted, 1, 'one coupon minted upstream');
  assert.equal(new Set(replies.map((reply) => reply.body.data.requestCoupon.coupon.code)).size, 1);
}

describe('README recipe: two Cloudflare Workers on one Durable Object namespace (wrangler dev)', () => {
  let hosts: RunningHost[] = [];
  let registry: string;

  before(async () => {
    const code = blockStarting(blocks, '// Cloudflare Workers, src/index.ts\n');
    const first = blockStarting(blocks, '// wrangler.jsonc\n');
    const second = blockStarting(blocks, '// wrangler.jsonc of another Worker on the same store\n');
    // Each Worker in a folder of its own (the second one's inside the project, so it resolves the same package).
    const folders = [project.dir, join(project.dir, 'second-worker')];
    const vars = `MARKETING_API_URL=${settings.MARKETING_API_URL}\nMARKETING_API_KEY=${settings.MARKETING_API_KEY}\n`;
    for (const [index, config] of [first, second].entries()) {
      await put(folders[index]!, 'src/index.ts', code);
      await put(folders[index]!, 'wrangler.jsonc', config);
      await put(folders[index]!, '.dev.vars', vars);
    }
    // wrangler's registry of local Workers, where the second finds the first one's Durable Objects.
    registry = await mkdtemp(join(tmpdir(), 'loyalty-wrangler-registry-'));
    hosts = await startAll(
      folders.map((dir) => (port: number) => ({
        command: bin('wrangler'),
        args: [
          'dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--inspector-port',
          '0',
          '--show-interactive-dev-session=false',
        ],
        cwd: dir,
        env: { WRANGLER_REGISTRY_PATH: registry },
      })),
    );
  });
  after(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    if (registry) await rm(registry, { recursive: true, force: true });
  });

  it(`mints one coupon for ${CONCURRENT_CLAIMS} concurrent requests with one Idempotency-Key over both Workers`, () =>
    claimOnceOverBoth(hosts, '127.0.0.31'));
});

describe('README recipe: two Deno processes on one KV file', () => {
  let hosts: RunningHost[] = [];

  before(async () => {
    const code = blockStarting(blocks, '// Deno: deno run ');
    // The command is the block's first line, as printed; the file is the one it names.
    const [deno, ...args] = code.split('\n', 1)[0]!.slice('// Deno: '.length).trim().split(/\s+/);
    assert.equal(deno, 'deno');
    await put(project.dir, args.at(-1)!, code);
    const kvPath = join(project.dir, 'proxy.kv');
    hosts = await startAll(
      [0, 1].map(() => (port: number) => ({
        command: bin('deno'),
        args,
        cwd: project.dir,
        env: { PORT: String(port), KV_PATH: kvPath },
      })),
    );
  });
  after(() => Promise.all(hosts.map((host) => host.stop())));

  it(`mints one coupon for ${CONCURRENT_CLAIMS} concurrent requests with one Idempotency-Key over both processes`, () =>
    claimOnceOverBoth(hosts, '127.0.0.32'));
});
