/**
 * The pack check's type step: a TypeScript file in each install folder imports the entries that
 * audience uses, and the repository's TypeScript checks it with skipLibCheck off, so every
 * declaration file the package ships is read through its `exports` as a merchant's compiler reads
 * it. The Fetch-API audience compiles without @types/node, as a Workers or Deno project would.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const TYPE_ROOTS = dirname(dirname(require.resolve('@types/node/package.json')));

const CONSUMERS: Record<string, { source: string; node: boolean }> = {
  plain: {
    node: false,
    source: `import { registerMessages } from 'loyalty-widgets';
import type { CampaignCarousel } from 'loyalty-widgets/elements/campaign-carousel';
import { MarketingClient } from 'loyalty-widgets/marketing';
import * as connect from 'loyalty-widgets/connect';
import { createMarketingProxy, verifyShopper } from 'loyalty-widgets/proxy';
const carousel = document.createElement('campaign-carousel') satisfies CampaignCarousel;
// The root entry alone types every tag and its events (coupon-claim is named by no import here).
document.querySelector('coupon-claim')?.addEventListener('coupon-claimed', (event) => {
  const code: string = event.detail.code;
  // @ts-expect-error a coupon-claimed detail has no such field
  void event.detail.coupon;
  void code;
});
const proxy: (request: Request) => Promise<Response> = createMarketingProxy({ upstreamUrl: 'https://api.example/graphql', apiKey: 'key' });
export { registerMessages, carousel, MarketingClient, connect, proxy, verifyShopper };
`,
  },
  'proxy-redis': {
    node: true,
    source: `import { createServer } from 'node:http';
import { createMarketingProxy } from 'loyalty-widgets/proxy';
import { createNodeTransport, toNodeHandler } from 'loyalty-widgets/proxy/node';
import { createRedisStore } from 'loyalty-widgets/proxy/redis';
const store = createRedisStore({ url: 'redis://localhost:6379' });
const proxy = createMarketingProxy({ upstreamUrl: 'https://api.example/graphql', apiKey: 'key', store, transport: createNodeTransport() });
export const server = createServer(toNodeHandler(proxy));
`,
  },
  sandbox: {
    node: true,
    source: `import { startSandbox, type RunningSandbox } from 'loyalty-widgets/sandbox';
export const sandbox: Promise<RunningSandbox> = startSandbox({ connectPort: 0, marketingPort: 0 });
`,
  },
};

export async function checkTypes(dirs: Record<string, string>): Promise<void> {
  for (const [name, consumer] of Object.entries(CONSUMERS)) {
    const dir = dirs[name]!;
    await writeFile(join(dir, 'consumer.mts'), consumer.source);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: 'es2022',
      ...(consumer.node
        ? { module: 'nodenext', lib: ['es2023'], typeRoots: [TYPE_ROOTS], types: ['node'] }
        : { module: 'esnext', moduleResolution: 'bundler', lib: ['es2023', 'dom', 'dom.iterable'], types: [] }),
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.mts'] }));
    try {
      await promisify(execFile)(process.execPath, [TSC, '-p', dir]);
    } catch (error) {
      throw new Error(`types in ${name}: ${(error as { stdout?: string }).stdout ?? String(error)}`);
    }
    const how = consumer.node ? 'nodenext with @types/node' : 'bundler resolution without @types/node';
    console.log(`types (${name}): a consumer type-checks (${how}, skipLibCheck off)`);
  }
}
