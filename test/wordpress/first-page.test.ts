/**
 * Blocks and shortcodes print their first page: in a real WordPress with the plugin from its zip and
 * its own proxy (no other server), a post's campaigns, coupon and businesses are in the page's HTML as
 * the Node proxy's renderer prints the same answer, read through the plugin's proxy and its cache, so
 * a second page view costs the Marketing API nothing. With JavaScript off the first page reads fully;
 * with it on, the element takes the page over with no request for it. A hostile upstream string stays
 * text through WordPress's content filters (no markup, no shortcode, no smiley, no curled quote), and
 * with the Marketing API down the page prints the bare mount, whose element then asks for itself.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { renameSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { renderMount } from '../../src/proxy/index.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { launchChromium } from '../support/e2e.ts';
import { installPluginFromZip } from './support/install.ts';
import { ZIP } from './support/shop.ts';
import { problemsIn, unshielded } from './support/site.ts';
import { phpArray, phpString, startWordPress, wordPressSkip, type RunningWordPress } from './support/wordpress.ts';

const skip = wordPressSkip();
if (skip) console.warn(`Skipping the WordPress tests: ${skip}`);

/** A campaign title as a hostile Marketing API writes it: markup, a shortcode, a smiley, quotes WordPress would curl. */
const HOSTILE =
  '"><img src=x onerror="window.__pwned=1">[loyalty_signin_button] :) </script><script>window.__pwned=2</script> it\'s "x" -- 1x2 \u2028';

/** The Marketing API as the plugin sees it: the sandbox, answering as it does, hostile, or down. */
interface Front {
  url: string;
  mode: 'up' | 'hostile' | 'down';
  calls: number;
  close(): Promise<void>;
}

/** Every campaign title of a GraphQL answer made hostile. */
function hostile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hostile);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, key === 'title' ? `${HOSTILE}${String(field)}` : hostile(field)]),
  );
}

async function startFront(upstream: string): Promise<Front> {
  const server: Server = createServer((request, response) => {
    front.calls++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (front.mode === 'down') {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
        return;
      }
      void fetch(upstream, {
        method: request.method,
        headers: Object.fromEntries(
          Object.entries(request.headers).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
          ),
        ),
        body: request.method === 'POST' ? Buffer.concat(chunks) : undefined,
      }).then(async (answer) => {
        const text = await answer.text();
        const body = front.mode === 'hostile' ? JSON.stringify(hostile(JSON.parse(text))) : text;
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: Front = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`,
    mode: 'up',
    calls: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return front;
}

/** The site's proxy route (plain permalinks), as the widgets' endpoint names it. */
const ROUTE = /loyalty-widgets(\/|%2F)v1(\/|%2F)marketing/i;

/** Every call a page makes to the site's proxy route (a read as GET or POST), from now on. */
function routeCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (ROUTE.test(request.url())) calls.push(`${request.method()} ${request.url()} ${request.postData() ?? ''}`);
  });
  return calls;
}

/** The calls for a first page (a later page carries its nextToken). */
const firstPages = (calls: string[]): string[] => calls.filter((call) => !call.includes('nextToken'));

describe('blocks and shortcodes print their first page', { skip }, () => {
  let wp: RunningWordPress;
  let sandbox: RunningSandbox;
  let front: Front;
  let browser: Browser;
  let dataDir: string;
  const contexts: BrowserContext[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loyalty-wp-first-page-'));
    [wp, sandbox, browser] = await Promise.all([
      startWordPress(),
      startSandbox({ connectPort: 0, marketingPort: 0, dataDir }),
      launchChromium(),
    ]);
    front = await startFront(sandbox.marketingUrl);
    await installPluginFromZip(wp, ZIP);
    wp.php(
      `update_option( 'loyalty_widgets_settings', loyalty_widgets_sanitize_settings( ${phpArray({ marketing_url: front.url })} ) );
      update_option( 'loyalty_widgets_marketing_key', ${phpString(sandbox.apiKey)} );`,
    );
  });

  after(async () => {
    await browser?.close();
    await front?.close();
    await Promise.all([wp?.close(), sandbox?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    front.mode = 'up';
    assert.deepEqual(problemsIn(wp.takeLog()), [], 'no PHP notice, warning or error');
  });

  /** Publishes a post of `content` as an Author (no unfiltered_html); its address. */
  const publish = (content: string): string => {
    const id = wp.php(
      `wp_set_current_user( get_user_by( 'login', 'author' )->ID );
      echo wp_insert_post( array( 'post_status' => 'publish', 'post_title' => 'Offers', 'post_author' => get_current_user_id(), 'post_content' => wp_slash( ${phpString(content)} ) ) );`,
    );
    assert.ok(Number(id) > 0, 'the post is published');
    return `${wp.url}/?p=${id}`;
  };
  const page = async (options: { javaScriptEnabled?: boolean } = {}): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    contexts.push(context);
    return context.newPage();
  };
  /** The route's answer to a read, as the browser gets it. */
  const routeAnswer = async (query: string): Promise<string> => {
    const answer = await fetch(`${wp.url}/?rest_route=/loyalty-widgets/v1/marketing&${query}`);
    assert.equal(answer.status, 200);
    return answer.text();
  };
  /** What the block prints for `answer`: the Node renderer's mount, with the block's class. */
  const blockMount = (tag: string, attributes: Record<string, string | number>, answer?: string): string =>
    renderMount(tag, attributes, answer).replace(
      '<div data-loyalty-widget=',
      `<div class="wp-block-loyalty-widgets-${tag}" data-loyalty-widget=`,
    );
  it('prints the Node renderer’s markup, through the proxy’s cache, and reads fully with JavaScript off', async () => {
    const url = publish(
      '<!-- wp:loyalty-widgets/campaign-carousel {"limit":3} /-->' +
        '<!-- wp:loyalty-widgets/coupon-claim {"campaignId":"camp-harbor-beans"} /-->' +
        '<!-- wp:loyalty-widgets/business-directory {"limit":3} /-->' +
        '<!-- wp:shortcode -->[loyalty_campaign_carousel limit="2"]<!-- /wp:shortcode -->',
    );
    const called = front.calls;
    const html = unshielded(await (await fetch(url)).text());
    assert.ok(front.calls > called, 'the first page view asked the Marketing API');
    const afterFirst = front.calls;
    assert.equal(unshielded(await (await fetch(url)).text()), html, 'the second page view prints the same');
    assert.equal(front.calls, afterFirst, 'and was answered by the proxy’s cache');

    // Exactly what the route answers the browser, printed as the Node renderer prints it.
    const campaigns = await routeAnswer('operation=campaigns&limit=3');
    const coupon = await routeAnswer('operation=campaign&id=camp-harbor-beans');
    const businesses = await routeAnswer('operation=businessAccounts&limit=3');
    assert.equal(front.calls, afterFirst, 'the route reads the same cache');
    for (const mount of [
      blockMount('campaign-carousel', { limit: 3 }, campaigns),
      blockMount('coupon-claim', { 'campaign-id': 'camp-harbor-beans' }, coupon),
      blockMount('business-directory', { limit: 3 }, businesses),
    ]) {
      assert.ok(html.includes(mount), `the page holds ${mount.slice(0, 160)}…`);
    }
    assert.ok(
      html.includes(
        renderMount('campaign-carousel', { limit: 2 }, await routeAnswer('operation=campaigns&limit=2')).replace(
          '<div data-loyalty-widget=',
          '<div class="loyalty-widgets-shortcode wp-block-loyalty-widgets-campaign-carousel" data-loyalty-widget=',
        ),
      ),
      'the shortcode prints it too',
    );

    const offline = await page({ javaScriptEnabled: false });
    await offline.goto(url);
    const { items } = (
      JSON.parse(campaigns) as { data: { campaigns: { items: { content: { title: string; subtitle: string } }[] } } }
    ).data.campaigns;
    assert.equal(items.length, 3);
    const carousel = offline.locator('.wp-block-loyalty-widgets-campaign-carousel:not(.loyalty-widgets-shortcode)');
    for (const { content } of items) {
      for (const text of [content.title, content.subtitle].filter(Boolean)) {
        assert.ok(await carousel.getByText(text, { exact: true }).isVisible(), `"${text}" shows`);
      }
    }
    const image = carousel.locator('img').first();
    assert.ok(await image.isVisible(), 'the first campaign’s image shows');
    assert.match((await image.getAttribute('srcset')) ?? '', /\b320w, .* 1280w$/);
    assert.equal(await image.getAttribute('sizes'), 'auto, (min-width: 30rem) 20rem, 85vw');
    const directory = offline.locator('.wp-block-loyalty-widgets-business-directory');
    const { items: shops } = (JSON.parse(businesses) as { data: { businessAccounts: { items: { name: string }[] } } })
      .data.businessAccounts;
    for (const { name } of shops) assert.ok(await directory.getByText(name, { exact: true }).isVisible(), name);
    assert.ok(await directory.locator('address').first().isVisible(), 'the addresses show');
    assert.ok(
      await offline.locator('.wp-block-loyalty-widgets-coupon-claim h2').isVisible(),
      'the coupon’s title shows',
    );
  });

  it('is taken over by the element, which asks the route for no first page', async () => {
    const url = publish(
      '<!-- wp:loyalty-widgets/campaign-carousel {"limit":3} /-->' +
        '<!-- wp:loyalty-widgets/business-directory {"limit":3} /-->',
    );
    const html = unshielded(await (await fetch(url)).text());
    const printed = [...html.matchAll(/<h2 data-field="title">([^<]*)<\/h2>/g)].map(([, title]) => title);
    assert.equal(printed.length, 3, 'the server printed the campaigns');
    const shopper = await page();
    const calls = routeCalls(shopper);
    const scripts: string[] = [];
    shopper.on('request', (request) => scripts.push(request.url()));
    await shopper.goto(url);
    await shopper
      .locator('[data-loyalty-widget] campaign-carousel [part~="slide"]')
      .first()
      .waitFor({ timeout: 20_000 });
    await shopper
      .locator('[data-loyalty-widget] business-directory [part~="card"]')
      .first()
      .waitFor({ timeout: 20_000 });
    const titles = await shopper.locator('campaign-carousel [part~="title"]').allTextContents();
    assert.deepEqual(
      titles.slice(0, 3).map((title) => title.trim()),
      printed.map((title = '') => title.replaceAll('&#39;', "'").replaceAll('&amp;', '&')),
      'the element shows the page the server printed',
    );
    // Once: the elements' files import the script tag by the address WordPress prints it under.
    assert.equal(
      scripts.filter((request) => /\/loyalty-widgets\.js(\?|$)/.test(request)).length,
      1,
      `the script tag loaded once: ${scripts.join(' ')}`,
    );
    assert.deepEqual(firstPages(calls), [], 'no first page was asked for');
  });

  it('keeps a hostile upstream string as text through WordPress’s content filters, and block attributes as data', async () => {
    front.mode = 'hostile';
    const url = publish(
      '<!-- wp:loyalty-widgets/campaign-carousel {"limit":5,"label":"\\u003c/script\\u003e\\u003cscript\\u003ewindow.__pwned=3\\u003c/script\\u003e"} /-->' +
        '<!-- wp:shortcode -->[loyalty_campaign_carousel limit="1"]<!-- /wp:shortcode -->',
    );
    const offline = await page({ javaScriptEnabled: false });
    // A block theme filters its whole template again; a classic theme the post's content only.
    for (const theme of ['twentytwentyone', 'twentytwentythree']) {
      wp.php(`switch_theme( '${theme}' );`);
      const html = await (await fetch(url)).text();
      assert.ok(html.includes('data-loyalty-first-page="campaigns"'), `${theme}: the first page is printed`);
      const printed = html.slice(html.indexOf('data-loyalty-widget'), html.lastIndexOf('</script></div>'));
      for (const forbidden of ['<img src=x', '<script>window.__pwned', 'wp-smiley', '&#8217;', '&#8211;', '&#215;']) {
        assert.ok(!printed.includes(forbidden), `${theme}: no ${forbidden} in what the widgets printed`);
      }
      assert.ok(!/<loyalty-signin-button/.test(html), `${theme}: the upstream’s shortcode is not run`);

      await offline.goto(url);
      for (const selector of [
        '.wp-block-loyalty-widgets-campaign-carousel:not(.loyalty-widgets-shortcode) h2',
        '.loyalty-widgets-shortcode h2',
      ]) {
        const title = (await offline.locator(selector).first().textContent()) ?? '';
        assert.ok(title.startsWith(HOSTILE), `${theme}: ${selector} shows the upstream's text as it is: ${title}`);
      }
      assert.equal(await offline.locator('img[src="x"]').count(), 0);
    }

    const shopper = await page();
    const calls = routeCalls(shopper);
    await shopper.goto(url);
    await shopper.locator('campaign-carousel [part~="slide"]').first().waitFor({ timeout: 20_000 });
    assert.equal(await shopper.evaluate(() => (window as { __pwned?: number }).__pwned), undefined, 'nothing ran');
    const shown = (await shopper.locator('campaign-carousel [part~="title"]').first().textContent()) ?? '';
    assert.ok(shown.startsWith(HOSTILE), `the element shows the same text: ${shown}`);
    assert.deepEqual(firstPages(calls), [], 'and took the printed answer, its escapes read as the same JSON');
  });

  it('prints the element alone, with no PHP error, from a plugin copied without its contract.json', async () => {
    const contract = join(wp.folder, 'site/wp-content/plugins/loyalty-widgets/contract.json');
    const url = publish('<!-- wp:loyalty-widgets/campaign-carousel {"limit":3} /-->');
    renameSync(contract, `${contract}.away`);
    try {
      assert.ok(
        (await (await fetch(url)).text()).includes(
          '<div class="wp-block-loyalty-widgets-campaign-carousel"><campaign-carousel limit="3"></campaign-carousel></div>',
        ),
      );
    } finally {
      renameSync(`${contract}.away`, contract);
    }
  });

  it('prints the bare mount when the Marketing API is down or the widgets read through another proxy, and the element still loads', async () => {
    const url = publish('<!-- wp:loyalty-widgets/campaign-carousel {"limit":4} /-->');
    front.mode = 'down';
    const bare =
      '<div class="wp-block-loyalty-widgets-campaign-carousel" data-loyalty-widget="campaign-carousel" data-limit="4"></div>';
    const html = await (await fetch(url)).text();
    assert.ok(html.includes(bare), 'the bare mount');
    const log = wp.takeLog();
    assert.deepEqual(problemsIn(log), [], 'no PHP notice, warning or error');
    assert.doesNotMatch(log, /loyalty-widgets first page/, 'an upstream that cannot answer is no failure of the page');

    // The page as it was printed, its element asking once the Marketing API is back.
    front.mode = 'up';
    const shopper = await page();
    await shopper.route(url, (route) => route.fulfill({ body: html, contentType: 'text/html' }));
    const calls = routeCalls(shopper);
    await shopper.goto(url);
    await shopper.locator('campaign-carousel [part~="slide"]').first().waitFor({ timeout: 20_000 });
    assert.equal(firstPages(calls).length, 1, `the element asked the route for its first page: ${calls.join(' ')}`);
    assert.match(firstPages(calls)[0]!, /"operation":"campaigns".*"limit":4|operation=campaigns&limit=4/);

    const before = wp.php("echo serialize( get_option( 'loyalty_widgets_settings' ) );");
    try {
      wp.php(
        `update_option( 'loyalty_widgets_settings', loyalty_widgets_sanitize_settings( ${phpArray({ marketing_url: front.url, endpoint: 'https://proxy.example/api/marketing' })} ) );`,
      );
      const called = front.calls;
      const elsewhere = publish('<!-- wp:loyalty-widgets/campaign-carousel {"limit":9} /-->');
      assert.ok(
        (await (await fetch(elsewhere)).text()).includes(
          '<div class="wp-block-loyalty-widgets-campaign-carousel" data-loyalty-widget="campaign-carousel" data-limit="9"></div>',
        ),
        'another proxy’s first page is not this one’s to print',
      );
      assert.equal(front.calls, called, 'and the Marketing API was not asked');
    } finally {
      wp.php(
        `global $wpdb; $wpdb->update( $wpdb->options, array( 'option_value' => ${phpString(before)} ), array( 'option_name' => 'loyalty_widgets_settings' ) );
        wp_cache_delete( 'alloptions', 'options' ); wp_cache_delete( 'loyalty_widgets_settings', 'options' );`,
      );
    }
  });
});
