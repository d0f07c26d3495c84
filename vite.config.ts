import { defineConfig, type Plugin } from 'vite';
import { demoSitePlugins } from './demo/vite-plugins.ts';
import { dropLitGlobals } from './scripts/vite-lit-globals.ts';
import { litDocumentMethods } from './scripts/vite-lit-document.ts';
import { elementFiles } from './scripts/vite-element-files.ts';
import { minifyLiterals } from './scripts/vite-minify-literals.ts';
import { headlessCopies } from './scripts/vite-entry-copies.ts';
import { stylesheetCss } from './src/reserved-space.ts';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const elementTags = readdirSync(new URL('./src/elements', import.meta.url), { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && existsSync(new URL(`./src/elements/${entry.name}/index.ts`, import.meta.url)),
  )
  .map((entry) => entry.name);

/**
 * Fewer, larger shared chunks than the automatic split: every file is gzipped on its own, so a
 * page that fetches ten small files pays for ten compression contexts and ten requests. A group
 * also takes in what its modules import, unless an earlier group already has it.
 * - `loyalty-widgets`: the script tag itself (src/index.ts, with everything it imports) and the
 *   plumbing every element uses, none of it lit: strings and their registry, the elements' events,
 *   where the Marketing endpoint is, the early answers (marketing/prefetch.ts). The group holds the
 *   entry module, so it is the script tag's own file: dist/loyalty-widgets.js imports no other file,
 *   and the elements' files import their plumbing from it, on a page where it has already run. The
 *   headless entries get their own copies instead (scripts/vite-entry-copies.ts).
 * - `core`: lit and the element base every element uses, fetched with each element's own files.
 * - `marketing`: the elements' reads of the Marketing proxy (marketing/requests.ts: no credentials,
 *   no claim, which come with the claim's own code), the loading, error and paging parts the three
 *   Marketing elements share, and the space a carousel's and a coupon's placeholders hold
 *   (shared/loading-sizes.ts): what every Marketing element's page needs beside lit, in one file.
 * - `session`: who is signed in, with the watch for a shopper's intent that fetches the code a click
 *   needs (the sign-in's, a coupon's claim): the elements that read the session are the ones with
 *   such a click.
 */
/** The entries that never run the script tag: the headless clients and the callback page's script. */
const HEADLESS_ENTRIES = ['src/connect/index.ts', 'src/marketing/index.ts', 'src/connect/callback-page.ts'];
/** What prints a preloaded first page in the browser (dist/first-page.js, src/first-page.ts). */
const FIRST_PAGE_ENTRY = 'src/first-page.ts';
const sourcePath = (id: string): string => id.slice(root.length).replaceAll('\\', '/');
const chunkGroups = [
  {
    name: 'loyalty-widgets',
    test: (id: string) =>
      /^src\/(index|shared\/(i18n|define|version|warn|config|merchant|url|safe-url|page-size|emit)|marketing\/prefetch)\.ts$/.test(
        sourcePath(id),
      ),
  },
  {
    name: 'core',
    test: (id: string) =>
      /node_modules[\\/](lit|lit-html|lit-element|@lit)[\\/]|@oxc-project\+runtime@.*[\\/]decorate\.js$/.test(id) ||
      /^src\/(shared\/(theme\.styles|button\.styles|css-value)|elements\/internal\/loyalty-element)\.ts$/.test(
        sourcePath(id),
      ),
  },
  {
    name: 'marketing',
    test: (id: string) =>
      /^src\/(marketing\/(errors|types|requests)\.ts$|elements\/internal\/|shared\/loading-sizes\.ts$)/.test(
        sourcePath(id),
      ),
  },
  { name: 'session', test: (id: string) => /^src\/(connect\/session|shared\/intent)\.ts$/.test(sourcePath(id)) },
];

/** Ships the space the elements take before their code arrives as dist/loyalty-widgets.css. */
function reservedSpaceStylesheet(): Plugin {
  return {
    name: 'loyalty-reserved-space-stylesheet',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'loyalty-widgets.css', source: stylesheetCss() });
    },
  };
}

/** Ships the standalone sign-in callback page as dist/callback.html, beside dist/connect-callback.js. */
function signInCallbackPage(): Plugin {
  return {
    name: 'loyalty-signin-callback-page',
    generateBundle() {
      const source = readFileSync(new URL('./src/connect/callback.html', import.meta.url), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'callback.html', source });
    },
  };
}

export default defineConfig(({ command }) =>
  command === 'serve'
    ? {
        root: 'demo',
        server: { port: Number(process.env.DEMO_PORT ?? 5173), strictPort: true },
        // `npx vite` alone serves the demo against a sandbox already running on the default ports;
        // `npm start` (scripts/start.ts) starts both.
        plugins: demoSitePlugins({
          upstreamUrl:
            process.env.MARKETING_API_URL ?? `http://localhost:${process.env.MARKETING_PORT ?? 4002}/graphql`,
          apiKey: process.env.MARKETING_API_KEY ?? process.env.SANDBOX_API_KEY ?? 'sandbox-api-key',
          connectUrl: process.env.CONNECT_URL ?? `http://localhost:${process.env.CONNECT_PORT ?? 4001}`,
          clientId: process.env.CONNECT_CLIENT_ID ?? 'loyalty-demo',
        }),
      }
    : {
        root,
        publicDir: false,
        plugins: [
          dropLitGlobals(),
          litDocumentMethods(),
          minifyLiterals(),
          headlessCopies(HEADLESS_ENTRIES.map((entry) => `${root}${entry}`)),
          // The first page printed from a preloaded answer: a page may preload its file by name, so it
          // is one file, with its own copies of what it uses (the Marketing chunk's answer checks).
          headlessCopies([`${root}${FIRST_PAGE_ENTRY}`], '?first-page-copy'),
          elementFiles('loyalty-widgets.js'),
          signInCallbackPage(),
          reservedSpaceStylesheet(),
        ],
        build: {
          outDir: 'dist',
          emptyOutDir: true,
          target: 'es2022',
          sourcemap: true,
          // dist/.vite/manifest.json tells `npm run size` which chunks a page loads first and which later.
          manifest: true,
          // lit, oidc-client-ts and jose are bundled into dist/, so their licences ship beside them.
          license: { fileName: 'THIRD-PARTY-LICENSES.md' },
          lib: {
            formats: ['es'],
            entry: {
              'loyalty-widgets': 'src/index.ts',
              connect: 'src/connect/index.ts',
              // The script of the standalone sign-in callback page (callback.html).
              'connect-callback': 'src/connect/callback-page.ts',
              marketing: 'src/marketing/index.ts',
              'first-page': FIRST_PAGE_ENTRY,
              ...Object.fromEntries(elementTags.map((tag) => [`elements/${tag}`, `src/elements/${tag}/index.ts`])),
            },
          },
          rolldownOptions: {
            // An element's entry (dist/elements/<tag>.js) is its code itself rather than a file that only
            // re-exports a chunk of the same code: a page fetches one file less. Its exports stay the entry's own.
            preserveEntrySignatures: 'allow-extension',
            // Constants another module exports (the storage-key prefix) are written where they are used, so a
            // shared constant never becomes a file of its own that a page must fetch.
            optimization: { inlineConst: { mode: 'all' } },
            // Lib mode keeps ES output readable by default; the script tag a merchant pastes should
            // be as small as it can be, so whitespace and names are minified too, and the bundler's
            // pure annotations (read while bundling, of no use to a browser) are not written out.
            output: {
              chunkFileNames: 'chunks/[name]-[hash].js',
              minify: true,
              comments: { annotation: false },
              codeSplitting: { groups: chunkGroups },
            },
          },
        },
      },
);
