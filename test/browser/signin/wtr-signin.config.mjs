// The sign-in suites alone, with the hostile provider and without the sandbox services:
//   node --import tsx node_modules/@web/test-runner/dist/bin.js --config test/browser/signin/wtr-signin.config.mjs
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { hostileProviderPlugin } from '../../support/hostile-provider.ts';

export default {
  rootDir: '.',
  files: process.env.WTR_FILES ? process.env.WTR_FILES.split(',') : ['test/browser/signin/**/*.test.ts'],
  nodeResolve: true,
  port: Number(process.env.WTR_PORT || 8765),
  concurrency: 1,
  testFramework: { config: { timeout: 20_000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }), hostileProviderPlugin()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        headless: true,
        args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      },
    }),
  ],
};
