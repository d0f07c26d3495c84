/**
 * An element's entry (`loyalty-widgets/elements/<tag>`) taken into a merchant's own bundle, as a
 * bundler does: the built element file imports its plumbing from the script tag's file, so the
 * bundle holds the script tag too, under the bundle's own address. There it must not fetch the
 * element's files ahead from beside itself (they are not there: the bundle has them), and the element
 * works as on a page with the script tag.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { useE2eStack } from '../support/e2e.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const pages = new Map<string, string>();
const stack = useE2eStack({ staticSites: { shop: { pages } } });

/** The merchant's app, bundled into one file by vite with the package's element entry resolved to dist/. */
async function bundle(main: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    root: dist,
    resolve: { alias: [{ find: /^loyalty-widgets\/elements\/([\w-]+)$/, replacement: `${dist}/elements/$1.js` }] },
    build: { write: false, rolldownOptions: { input: 'merchant-app', output: { codeSplitting: false } } },
    plugins: [
      {
        name: 'merchant-app',
        resolveId: (id) => (id === 'merchant-app' ? '\0merchant-app' : null),
        load: (id) => (id === '\0merchant-app' ? main : null),
      },
    ],
  });
  const [output] = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = output!.output.filter((file) => file.type === 'chunk');
  assert.equal(chunks.length, 1, 'one file');
  return chunks[0]!.code;
}

describe('an element entry in a merchant’s bundle', () => {
  before(async () => {
    const code = await bundle("import 'loyalty-widgets/elements/campaign-carousel';");
    pages.set(
      '/bundled.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Bundled</title><link rel="icon" href="data:," /></head><body>
        <campaign-carousel limit="4"></campaign-carousel>
        <script type="module">${code.replaceAll('</script', '<\\/script')}</script></body></html>`,
    );
  });

  it('shows the element and fetches nothing from beside the bundle', async () => {
    const page = await stack.browser.newPage();
    const failed: string[] = [];
    const scripts: string[] = [];
    const errors: string[] = [];
    page.on(
      'response',
      (response) => response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`),
    );
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${stack.sites.shop.origin}/bundled.html`);
    await page.locator('campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
    assert.deepEqual(failed, []);
    assert.deepEqual(scripts, [], 'the bundle fetched script files');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
