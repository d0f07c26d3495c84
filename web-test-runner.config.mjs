// Browser tests in the system Chromium (nothing downloads a browser). Run through
// `node --import tsx` so this config can start the real sandbox and proxy from TypeScript sources.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { testServicesPlugin } from './test/support/wtr-services.ts';
import { hostileProviderPlugin } from './test/support/hostile-provider.ts';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

export default {
  files: process.env.WTR_FILES ? process.env.WTR_FILES.split(',') : ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  port: Number(process.env.WTR_PORT || 8765),
  concurrency: 1,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 20_000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }), testServicesPlugin(), hostileProviderPlugin()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      },
    }),
  ],
};
