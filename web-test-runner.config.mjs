// Browser tests in the system's browsers (nothing downloads a browser): Chromium by default,
// `WTR_BROWSERS=chromium,firefox,webkit` for any of the three engines (test/support/engines.ts;
// `npm run test:browser` runs each installed engine in turn). Run through `node --import tsx` so
// this config can start the real sandbox and proxy from TypeScript sources.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { testServicesPlugin } from './test/support/wtr-services.ts';
import { hostileProviderPlugin } from './test/support/hostile-provider.ts';
import { ENGINES, launcherFor } from './test/support/engines.ts';

const engines = (process.env.WTR_BROWSERS || 'chromium').split(',').map((name) => name.trim());
for (const engine of engines) {
  if (!ENGINES.includes(engine))
    throw new Error(`WTR_BROWSERS: unknown engine "${engine}" (one of ${ENGINES.join(', ')})`);
}

export default {
  files: process.env.WTR_FILES ? process.env.WTR_FILES.split(',') : ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  port: Number(process.env.WTR_PORT || 8765),
  concurrency: 1,
  // The engines share one sandbox and one scripted provider: one engine at a time.
  concurrentBrowsers: 1,
  // scripts/test-browsers.ts gives WebKit a shorter limit, so a run whose WebDriver stops answering ends sooner.
  testsFinishTimeout: Number(process.env.WTR_FINISH_TIMEOUT || 300_000),
  testFramework: { config: { timeout: 20_000 } },
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    testServicesPlugin(),
    hostileProviderPlugin(),
  ],
  browsers: engines.map(launcherFor),
};
