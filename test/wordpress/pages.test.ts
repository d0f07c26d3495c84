/**
 * What the plugin prints, in a real WordPress 6.1 (Debian's) with the built zip: the callback page's
 * headers and what may run or frame it, where it answers; the script and stylesheet only on pages with
 * a widget, wherever the widget comes from; the module tag beside another plugin's inline script;
 * mounts with the settings' currency and language; text attributes cut by characters; token origins
 * written as a browser writes them. No PHP notice or warning along the way.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { phpArray, phpString, wordPressSkip, type RunningWordPress } from './support/wordpress.ts';
import { LATTE, problemsIn, widgetsSettle } from './support/site.ts';
import { startShop, type Shop } from './support/shop.ts';

const skip = wordPressSkip();

const BUNDLE = 'script[src*="loyalty-widgets/dist/loyalty-widgets.js"]';
const STYLESHEET = 'link[href*="loyalty-widgets/dist/loyalty-widgets.css"]';

describe('the WordPress plugin’s pages', { skip }, () => {
  let shop: Shop;
  let wp: RunningWordPress;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const muPlugins: string[] = [];
  const callbackUrl = (): string => `${wp.url}/?loyalty-widgets-callback=1`;

  /** A must-use plugin for one test: PHP run on every request until the test ends. */
  const muPlugin = (name: string, code: string): void => {
    const path = join(wp.folder, 'site/wp-content/mu-plugins', `${name}.php`);
    writeFileSync(path, `<?php\n${code}\n`);
    muPlugins.push(path);
  };
  const page = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return context.newPage();
  };
  const publish = (content: string): number =>
    Number(
      wp.php(
        `kses_remove_filters(); echo wp_insert_post( array( 'post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Widgets', 'post_author' => 1, 'post_content' => wp_slash( ${phpString(content)} ) ) );`,
      ),
    );
  const html = async (path: string): Promise<string> => (await fetch(`${wp.url}${path}`)).text();
  /** Opens the callback page in Chromium; its script says there is no sign-in in progress. */
  const openCallback = async (): Promise<Page> => {
    const callback = await page();
    await callback.goto(callbackUrl());
    await callback
      .locator('[data-loyalty-callback-status]')
      .getByText('There is no sign-in in progress. You can close this window.')
      .waitFor();
    return callback;
  };

  before(async () => {
    shop = await startShop();
    ({ wp, browser } = shop);
    wp.php(
      `update_option( 'loyalty_widgets_settings', ${phpArray({ endpoint: shop.proxyUrl, currency: 'EUR', language: 'fr', authority: shop.sandbox.connectUrl, client_id: 'loyalty-demo' })} );`,
    );
  });

  after(() => shop?.close());

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    for (const path of muPlugins.splice(0)) rmSync(path, { force: true });
    wp.php("update_option( 'permalink_structure', '' ); flush_rewrite_rules(); switch_theme( 'twentytwentythree' );");
    assert.deepEqual(problemsIn(wp.takeLog()), [], 'no PHP notice, warning or error');
  });

  test('the callback page lets only its own script run, by a nonce fresh on each answer, and refuses every frame', async () => {
    const answers = await Promise.all([fetch(callbackUrl()), fetch(callbackUrl())]);
    const nonces = await Promise.all(
      answers.map(async (response) => {
        assert.equal(response.headers.get('x-frame-options'), 'DENY');
        const policy = response.headers.get('content-security-policy') ?? '';
        const directives = new Map(
          policy.split(';').map((directive) => {
            const [name, ...values] = directive.trim().split(/\s+/);
            return [name, values] as const;
          }),
        );
        assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
        assert.deepEqual(directives.get('object-src'), ["'none'"]);
        assert.deepEqual(directives.get('base-uri'), ["'none'"]);
        const sources = directives.get('script-src') ?? [];
        assert.equal(sources.length, 1, `script-src ${sources.join(' ')}: the nonce alone, no origin`);
        const nonce = /^'nonce-([A-Za-z0-9+/_-]{22,}=*)'$/.exec(sources[0]!)?.[1];
        assert.ok(nonce, `script-src ${sources[0]} is a nonce`);
        const scripts = [...(await response.text()).matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
        assert.equal(scripts.length, 1);
        assert.ok(scripts[0]!.includes(`nonce="${nonce}"`), `${scripts[0]} carries the nonce`);
        assert.match(scripts[0]!, /connect-callback\.js/);
        return nonce;
      }),
    );
    assert.notEqual(nonces[0], nonces[1], 'a new nonce for each answer');

    // In a browser: the callback's script (and the modules it imports) runs, a script of the site's own does not.
    const callback = await openCallback();
    await assert.rejects(callback.addScriptTag({ url: `${wp.url}/wp-includes/js/jquery/jquery.min.js` }));
    assert.equal(await callback.evaluate(() => 'jQuery' in window), false);

    // A page on another origin that frames it gets nothing.
    const framing = createServer((_, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><iframe src="${callbackUrl()}"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, 'localhost', resolve));
    try {
      const host = await page();
      // The page's load waits for its frame's, refused or not.
      await host.goto(`http://localhost:${(framing.address() as { port: number }).port}/`, { waitUntil: 'load' });
      const frame = host.frames().find((candidate) => candidate !== host.mainFrame());
      assert.ok(frame, 'the frame is there');
      assert.equal(
        await frame.locator('[data-loyalty-callback-status]').count(),
        0,
        'the callback is not shown framed',
      );
    } finally {
      await new Promise((resolve) => framing.close(resolve));
    }
  });

  test('with a protocol-relative plugins_url (a CDN plugin) the callback page still runs its script', async () => {
    muPlugin(
      'protocol-relative-urls',
      "add_filter( 'plugins_url', static fn( $url ) => preg_replace( '#^https?:#', '', $url ) );",
    );
    const body = await html('/?loyalty-widgets-callback=1');
    assert.match(body, /src="\/\/127\.0\.0\.1:\d+\/wp-content\/plugins\/loyalty-widgets\/dist\/connect-callback\.js/);
    await openCallback();
  });

  test('the callback answers on the home path only, not on WordPress’s other entry points', async () => {
    const isCallback = (body: string): boolean => body.includes('dist/connect-callback.js');
    for (const permalinks of ['', '/%postname%/']) {
      wp.php(`update_option( 'permalink_structure', ${phpString(permalinks)} ); flush_rewrite_rules();`);
      assert.ok(isCallback(await html('/?loyalty-widgets-callback=1')), `home, permalinks "${permalinks}"`);
      const login = await html('/wp-login.php?loyalty-widgets-callback=1');
      assert.ok(!isCallback(login) && login.includes('id="loginform"'), 'wp-login.php stays the login form');
      const xmlrpc = await html('/xmlrpc.php?loyalty-widgets-callback=1');
      assert.ok(!isCallback(xmlrpc) && xmlrpc.includes('XML-RPC server accepts POST requests only'), 'xmlrpc.php');
      const rest = await fetch(`${wp.url}/?rest_route=/&loyalty-widgets-callback=1`);
      assert.match(rest.headers.get('content-type') ?? '', /json/, 'the REST API by its query parameter');
      if (permalinks) {
        const pretty = await fetch(`${wp.url}/wp-json/?loyalty-widgets-callback=1`);
        assert.match(pretty.headers.get('content-type') ?? '', /json/, 'the REST API by its path');
        assert.ok(!isCallback(await html('/sample-page/?loyalty-widgets-callback=1')), 'a page of the site');
      }
    }
  });

  test('the script and stylesheet load only on pages with a widget, the metas on every page', async () => {
    const plain = publish('<!-- wp:paragraph --><p>No widget here.</p><!-- /wp:paragraph -->');
    const withWidget: [string, string][] = [
      ['a block', `<!-- wp:loyalty-widgets/coupon-claim {"campaignId":"${LATTE}"} /-->`],
      ['a shortcode', `<!-- wp:shortcode -->[loyalty_coupon_claim campaign_id="${LATTE}"]<!-- /wp:shortcode -->`],
      [
        'a mount',
        `<!-- wp:html --><div data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}"></div><!-- /wp:html -->`,
      ],
    ];
    for (const theme of ['twentytwentythree', 'twentytwentyone']) {
      wp.php(`switch_theme( ${phpString(theme)} );`);
      const view = await page();
      await view.goto(`${wp.url}/?page_id=${plain}`);
      assert.equal(await view.locator(BUNDLE).count(), 0, `${theme}: no script without a widget`);
      assert.equal(await view.locator(STYLESHEET).count(), 0, `${theme}: no stylesheet without a widget`);
      assert.equal(await view.locator('head > meta[name="loyalty-redirect-uri"]').count(), 1, 'the metas stay');
      for (const [what, content] of withWidget) {
        await view.goto(`${wp.url}/?page_id=${publish(content)}`);
        assert.equal(await view.locator(`head > ${BUNDLE}`).count(), 1, `${theme}, ${what}: the script in the head`);
        assert.equal(await view.locator(`head > ${STYLESHEET}`).count(), 1, `${theme}, ${what}: the stylesheet`);
        await widgetsSettle(view, ['coupon-claim']);
      }
    }
  });

  test('a widget a classic theme’s template prints after the head loads the script and stylesheet itself', async () => {
    wp.php("switch_theme( 'twentytwentyone' );");
    muPlugin(
      'footer-widget',
      `add_action( 'wp_footer', static function () { echo do_shortcode( '[loyalty_coupon_claim campaign_id="${LATTE}"]' ); }, 5 );`,
    );
    const plain = publish('<!-- wp:paragraph --><p>The widget is in the footer.</p><!-- /wp:paragraph -->');
    const view = await page();
    await view.goto(`${wp.url}/?page_id=${plain}`);
    assert.equal(await view.locator(`head > ${BUNDLE}`).count(), 0);
    assert.equal(await view.locator(BUNDLE).count(), 1, 'the script, after the head');
    assert.equal(await view.locator(STYLESHEET).count(), 1, 'the stylesheet, after the head');
    await widgetsSettle(view, ['coupon-claim']);
  });

  test('an inline script added before the bundle stays a classic script, and the bundle a module', async () => {
    muPlugin(
      'inline-before',
      "add_action( 'wp_enqueue_scripts', static function () { wp_add_inline_script( 'loyalty-widgets', 'window.inlineBefore = document.currentScript ? \\'classic\\' : \\'module\\';', 'before' ); }, 20 );",
    );
    const view = await page();
    await view.goto(
      `${wp.url}/?page_id=${publish(`<!-- wp:loyalty-widgets/coupon-claim {"campaignId":"${LATTE}"} /-->`)}`,
    );
    assert.equal(await view.locator('#loyalty-widgets-js').getAttribute('type'), 'module');
    assert.equal(await view.locator('#loyalty-widgets-js-before').getAttribute('type'), null);
    assert.equal(await view.evaluate(() => (window as { inlineBefore?: string }).inlineBefore), 'classic');
    await widgetsSettle(view, ['coupon-claim']);
  });

  test('a mount shows a price as a block does: the settings’ currency and language, unless the editor set its own', async () => {
    const id = publish(
      `<!-- wp:loyalty-widgets/coupon-claim {"campaignId":"${LATTE}"} /-->` +
        `<!-- wp:html --><div class="mount" data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}"></div>` +
        `<div class="own" data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}" data-currency="USD" lang="en"></div><!-- /wp:html -->`,
    );
    const own = /<div class="own"[^>]*>/.exec(await html(`/?page_id=${id}`))?.[0] ?? '';
    assert.equal(own.match(/data-currency=/g)?.length, 1, own);
    assert.ok(!/data-lang=/.test(own), own);
    const view = await page();
    await view.goto(`${wp.url}/?page_id=${id}`);
    await widgetsSettle(view, ['coupon-claim'], 3);
    const price = (selector: string): Promise<string | null> =>
      view.locator(selector).locator('[part~="price"]').textContent();
    const block = await price('.wp-block-loyalty-widgets-coupon-claim coupon-claim');
    assert.match(block ?? '', /^2,50\s€$/, 'the block: euros, in French');
    assert.equal(await price('.mount coupon-claim'), block, 'the mount shows the same');
    assert.equal(await price('.own coupon-claim'), '$2.50', 'the editor’s own currency and language win');
  });

  test('text attributes are cut by characters, never inside one', () => {
    const label = `M${'é'.repeat(100)}`;
    const long = 'ü'.repeat(250);
    const rendered = JSON.parse(
      wp.php(
        `echo wp_json_encode( array(
          loyalty_widgets_markup( 'campaign-carousel', array( 'label' => ${phpString(label)} ), '' ),
          loyalty_widgets_markup( 'campaign-carousel', array( 'label' => ${phpString(long)} ), '' ),
        ) );`,
      ),
    ) as string[];
    assert.ok(rendered[0]!.includes(`label="${label}"`), rendered[0]);
    assert.ok(rendered[1]!.includes(`label="${'ü'.repeat(200)}"`), rendered[1]);
  });

  test('token origins are written as a browser writes them: no default port, lowercase, punycode', () => {
    const typed = [
      'https://proxy.example:443/api/marketing',
      'http://localhost:80',
      'https://Proxy.Example:8443',
      'https://BÜCHER.example',
      'https://münchen.example/path',
      'https://ПРИМЕР.рф',
      'https://ΕΛΛΗΝΙΚΆ.example',
      'https://例え.テスト',
      'https://tiếng.việt',
      'https://ĞÜŞ.example:443',
    ];
    const written = JSON.parse(
      wp.php(
        `echo wp_json_encode( array_map( 'loyalty_widgets_origin', ${phpArray(typed)} ) );
        `,
      ),
    ) as (string | null)[];
    typed.forEach((url, index) => assert.equal(written[index], new URL(url).origin, url));
    // Through the settings form and into the head's meta.
    const saved = wp.php(
      `update_option( 'loyalty_widgets_settings', loyalty_widgets_sanitize_settings( array_merge( loyalty_widgets_settings(), array( 'token_origins' => 'https://BÜCHER.example:443 https://proxy.example:443' ) ) ) );
      echo implode( ' ', loyalty_widgets_token_origins( loyalty_widgets_settings() ) );`,
    );
    assert.ok(
      saved.split(' ').includes('https://xn--bcher-kva.example') && saved.split(' ').includes('https://proxy.example'),
      saved,
    );
  });

  test('the installed plugin has the folder its Domain Path names, with the translation template', () => {
    const domainPath = wp.php(
      "echo get_plugin_data( WP_PLUGIN_DIR . '/loyalty-widgets/loyalty-widgets.php', false, false )['DomainPath'];",
    );
    const folder = join(wp.folder, 'site/wp-content/plugins/loyalty-widgets', domainPath);
    assert.ok(existsSync(join(folder, 'loyalty-widgets.pot')), `${domainPath}/loyalty-widgets.pot`);
  });
});
