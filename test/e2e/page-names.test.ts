/**
 * Markup in a page's body cannot hide what the widgets read of the document. A `<form name="x">` or an
 * `<img name="x" id="x">` becomes `document.x`, hiding the real property; the widgets read the document
 * through references taken when the script starts (src/shared/page.ts). For every property of
 * `document` the built script tag and its files name (read from dist/, so a new read is covered), a
 * page of the README's shop plants a form, then an img, of that name, and the widgets must still work,
 * with the same redirect URI (the shipped callback page) and the same endpoint (the head's). The
 * issue's first and third rows (`<form name="scripts">`, `<img name="scripts">`,
 * `<form name="querySelectorAll">`) run in WebKit too, and in Chromium and Firefox a sign-in from the
 * first row's page asks Connect to come back to the shipped callback page. Needs a build.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { missingPrograms, type Engine } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import { CONNECT_PAGE, useShopperBrowser, waitFor } from '../support/shopper-browser.ts';
import { VERSION } from '../../src/shared/version.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const ENDPOINT = '/shop/marketing';

/** Every name the built files read as a property (`x.name`) or name as a string (`"name"`). */
function namesInBundle(): string[] {
  const files = [
    'dist/loyalty-widgets.js',
    ...['chunks', 'elements'].flatMap((folder) =>
      readdirSync(`dist/${folder}`).map((file) => `dist/${folder}/${file}`),
    ),
  ];
  const names = new Set<string>();
  for (const file of files.filter((name) => name.endsWith('.js'))) {
    const code = readFileSync(file, 'utf8');
    for (const [, name] of code.matchAll(/\.([A-Za-z_$][\w$]*)/g)) names.add(name!);
    for (const [, name] of code.matchAll(/[`'"]([A-Za-z_$][\w$]*)[`'"]/g)) names.add(name!);
  }
  return [...names].sort();
}

/** The shop page of the README (its head, a sign-in button, a coupon, a CMS mount), with `planted` in a block. */
const shopPage = (planted: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Offers</title>
    <link rel="stylesheet" href="/dist/loyalty-widgets.css" />
    <script type="module" src="/dist/loyalty-widgets.js"></script>
    <meta name="loyalty-endpoint" content="${ENDPOINT}" />
    <meta name="loyalty-authority" content="%CONNECT_URL%" />
    <meta name="loyalty-client-id" content="%CLIENT_ID%" />
  </head>
  <body>
    <h1>Offers</h1>
    <loyalty-signin-button></loyalty-signin-button>
    <coupon-claim campaign-id="camp-harbor-beans"></coupon-claim>
    <div data-loyalty-widget="campaign-carousel" data-limit="3"></div>
    <div class="wp-block-html">${planted}</div>
  </body>
</html>`;

const PLANTS = {
  form: (name: string) => `<form name="${name}" id="${name}"></form>`,
  img: (name: string) => `<img name="${name}" id="${name}" alt="" />`,
};
type Plant = keyof typeof PLANTS;

/** The page's state, read without the page's own (perhaps hidden) properties of `document`. */
const STATE = `(() => {
  const $ = (selector) => Document.prototype.querySelector.call(document, selector);
  const signin = $('loyalty-signin-button')?.shadowRoot;
  const coupon = $('coupon-claim')?.shadowRoot;
  const carousel = $('[data-loyalty-widget] > campaign-carousel')?.shadowRoot;
  return {
    signIn: Boolean(signin?.querySelector('[part~="button"]:not([aria-disabled])')),
    coupon: Boolean(coupon?.querySelector('[part~="claim-button"]')),
    carousel: Boolean(carousel?.querySelector('[part~="slide"]')),
    callbackPage: globalThis[Symbol.for(${JSON.stringify(`loyalty-widgets ${VERSION}`)})]?.callbackPage ?? null,
    endpoints: [...new Set(performance.getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => /marketing$/.test(path)))],
  };
})()`;

interface State {
  signIn: boolean;
  coupon: boolean;
  carousel: boolean;
  callbackPage: string | null;
  endpoints: string[];
}

/** The names of `document` this engine lets markup hide: its properties, but not its own (unforgeable) ones. */
const HIDEABLE = (names: string[]) =>
  `${JSON.stringify(names)}.filter((name) => name in document && !Object.prototype.hasOwnProperty.call(document, name))`;

const ROWS: [Plant, string][] = [
  ['form', 'scripts'],
  ['img', 'scripts'],
  ['form', 'querySelectorAll'],
];

for (const engine of ['chromium', 'firefox', 'webkit'] as const satisfies readonly Engine[]) {
  const missing = missingPrograms(engine);
  describe(
    `names planted in a page's body in ${engine}`,
    { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
    () => {
      const pages = new Map<string, string>();
      const stack = useE2eStack({
        staticSites: { shop: { pages } },
        app: { name: 'Planted names shop', redirectPaths: { shop: ['/dist/callback.html'] } },
        chromium: false,
      });
      const browser = useShopperBrowser(engine, missing);

      /** Opens the shop with this planted, and checks that the widgets work as on the clean page. */
      async function plantAndCheck(plant: Plant, name: string): Promise<void> {
        const path = `/planted-${plant}-${name}.html`;
        pages.set(path, shopPage(PLANTS[plant](name)));
        const { page } = browser;
        await page.goto(`${stack.sites.shop.origin}${path}`);
        const what = `<${plant} name="${name}">`;
        await waitFor(
          page,
          `(${STATE}).signIn && (${STATE}).coupon && (${STATE}).carousel`,
          `the widgets, with ${what}`,
        );
        const state = await page.evaluate<State>(STATE);
        assert.equal(state.callbackPage, `${stack.sites.shop.origin}/dist/callback.html`, `redirect URI with ${what}`);
        assert.deepEqual(state.endpoints, [ENDPOINT], `endpoint with ${what}`);
      }

      it('the clean shop page: the widgets, the shipped callback page and the head’s endpoint', async () => {
        await plantAndCheck('form', 'loyaltyNothing');
      });

      for (const [plant, name] of ROWS)
        it(`the issue's <${plant} name="${name}">`, async () => {
          await plantAndCheck(plant, name);
        });

      if (engine !== 'webkit') {
        it('a sign-in from a page with <form name="scripts"> comes back to the shipped callback page', async () => {
          await plantAndCheck('form', 'scripts');
          const { page } = browser;
          const button = `Document.prototype.querySelector.call(document, 'loyalty-signin-button').shadowRoot.querySelector('[part~="button"]')`;
          const popup = await browser.popup(() => page.click(button));
          await waitFor(popup, CONNECT_PAGE, 'a page of Connect');
          const asked = new URL(await popup.evaluate<string>('location.href'));
          assert.equal(asked.searchParams.get('redirect_uri'), `${stack.sites.shop.origin}/dist/callback.html`);
          await popup.close();
        });

        it('every property of document the built files read, planted as a form and as an img', async () => {
          const { page } = browser;
          await page.goto(`${stack.sites.shop.origin}/dist/callback.html`);
          const names = await page.evaluate<string[]>(HIDEABLE(namesInBundle()));
          // The script tag's own reads are among them, so the list cannot come out empty or short.
          for (const read of ['scripts', 'head', 'querySelectorAll', 'createElement', 'documentElement'])
            assert.ok(names.includes(read), `${read} is among the names planted`);
          console.log(`# ${engine}: ${names.length} property names planted: ${names.join(' ')}`);
          const failed: string[] = [];
          for (const name of names) {
            for (const plant of ['form', 'img'] as const) {
              try {
                await plantAndCheck(plant, name);
              } catch (error) {
                failed.push(`<${plant} name="${name}">: ${error instanceof Error ? error.message : String(error)}`);
              }
            }
          }
          assert.deepEqual(failed, []);
        });
      }
    },
  );
}
