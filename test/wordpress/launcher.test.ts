/**
 * The launcher switched on in the plugin's settings, with no editor: the settings page refuses a corner
 * that is none and a label too long, and with a corner chosen every front-end page (the front page, a
 * post no editor touched) has one `<loyalty-launcher>` in that corner with that label, the script and
 * stylesheet to run it, and no launcher in the admin or on the sign-in callback. A shopper on such a
 * post signs in and claims a coupon inside its panel, through the plugin's own proxy route. With the
 * setting off, an element's tag an Administrator writes into a post loads the script and stylesheet as a
 * mount does, the launcher's too.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { signInOnPopup } from '../support/e2e.ts';
import { problemsIn, TAGS } from './support/site.ts';
import { startShop, type Shop } from './support/shop.ts';
import { phpArray, phpString, wordPressSkip, type RunningWordPress } from './support/wordpress.ts';

const skip = wordPressSkip();

describe('the launcher on every page', { skip }, () => {
  let shop: Shop;
  let wp: RunningWordPress;
  let post: number;
  const contexts: BrowserContext[] = [];
  const settings = (values: Record<string, string>): string =>
    wp.php(
      `update_option( 'loyalty_widgets_settings', loyalty_widgets_sanitize_settings( array_merge( loyalty_widgets_stored_settings(), ${phpArray(values)} ) ) );
      echo wp_json_encode( array( get_option( 'loyalty_widgets_settings' ), wp_list_pluck( get_settings_errors( 'loyalty_widgets_settings' ), 'message' ) ) );`,
    );

  before(async () => {
    shop = await startShop();
    wp = shop.wp;
    const app = await shop.sandbox.registerApp({
      name: 'Harbor shop (launcher)',
      redirectUris: [`${wp.url}/?loyalty-widgets-callback=1`],
    });
    wp.php(
      `update_option( 'loyalty_widgets_settings', ${phpArray({ authority: shop.sandbox.connectUrl, client_id: app.app_id, marketing_url: shop.sandbox.marketingUrl })} );
      update_option( 'loyalty_widgets_marketing_key', ${phpString(shop.sandbox.apiKey)} );`,
    );
    post = Number(
      wp.php(
        "echo wp_insert_post( array( 'post_status' => 'publish', 'post_title' => 'Opening hours', 'post_author' => 1, 'post_content' => '<p>Open every day from eight.</p>' ) );",
      ),
    );
  });
  after(() => shop?.close());
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    assert.deepEqual(problemsIn(wp.takeLog()), [], 'no PHP notice, warning or error');
  });

  const launchers = async (path: string): Promise<string[]> =>
    [...(await (await fetch(`${wp.url}${path}`)).text()).matchAll(/<loyalty-launcher[^>]*>/g)].map((match) => match[0]);

  test('off by default; a corner that is none and a label over 40 characters are refused, and nothing is printed', async () => {
    assert.deepEqual(await launchers(`/?p=${post}`), [], 'off until a corner is chosen');
    const [saved, errors] = JSON.parse(
      settings({ launcher: 'middle" onclick="alert(1)', launcher_label: 'x'.repeat(41) }),
    ) as [Record<string, string>, string[]];
    assert.equal(saved.launcher, '');
    assert.equal(saved.launcher_label, '');
    assert.ok(
      errors.some((message) => message.startsWith('Launcher: ')),
      errors.join(' / '),
    );
    assert.ok(
      errors.some((message) => message.startsWith('Launcher label: ')),
      errors.join(' / '),
    );
    assert.deepEqual(await launchers('/'), []);
  });

  test('an element’s tag written into an Administrator’s post loads the script and stylesheet in the head, as a mount does', async () => {
    settings({ launcher: '' });
    const posts = Object.fromEntries(
      [...TAGS, 'loyalty-launcher', 'data-loyalty-widget', 'no widget'].map((tag) => {
        const markup =
          tag === 'data-loyalty-widget'
            ? '<div data-loyalty-widget="loyalty-launcher"></div>'
            : tag === 'no widget'
              ? '<p>Come by for a <strong>loyalty-launcher</strong> demo.</p>'
              : `<${tag}></${tag}>`;
        const id = wp.php(
          `echo wp_insert_post( array( 'post_status' => 'publish', 'post_title' => ${phpString(tag)}, 'post_author' => 1, 'post_content' => ${phpString(`<p>Our rewards.</p>\n${markup}`)} ) );`,
        );
        assert.ok(wp.php(`echo get_post( ${id} )->post_content;`).includes(markup), `${tag}: kept as written`);
        return [tag, Number(id)];
      }),
    );
    const head = async (id: number): Promise<string> =>
      (await (await fetch(`${wp.url}/?p=${id}`)).text()).split('</head>')[0]!;
    for (const [tag, id] of Object.entries(posts)) {
      const printed = await head(id);
      const loads = tag !== 'no widget';
      assert.equal(/<script[^>]+loyalty-widgets\/dist\/loyalty-widgets\.js/.test(printed), loads, `${tag}: the script`);
      assert.equal(
        /<link[^>]+loyalty-widgets\/dist\/loyalty-widgets\.css/.test(printed),
        loads,
        `${tag}: the stylesheet`,
      );
    }
    const context = await shop.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${wp.url}/?p=${posts['loyalty-launcher']}`);
    await page.locator('loyalty-launcher [part~="button"]').filter({ hasText: 'Rewards' }).waitFor();
  });

  test('with a corner chosen, every front-end page has one launcher with the script, none in the admin or the callback', async () => {
    const [saved, errors] = JSON.parse(settings({ launcher: 'bottom-start', launcher_label: 'Nos avantages <b>' })) as [
      Record<string, string>,
      string[],
    ];
    assert.deepEqual(errors, []);
    assert.equal(saved.launcher, 'bottom-start');
    for (const path of ['/', `/?p=${post}`]) {
      assert.deepEqual(await launchers(path), ['<loyalty-launcher corner="bottom-start" label="Nos avantages">'], path);
      assert.match(await (await fetch(`${wp.url}${path}`)).text(), /loyalty-widgets\/dist\/loyalty-widgets\.js/);
    }
    assert.deepEqual(await launchers('/?loyalty-widgets-callback=1'), [], 'not on the sign-in callback');
    assert.doesNotMatch(
      wp.php(
        "set_current_screen( 'dashboard' ); ob_start(); do_action( 'admin_footer' ); do_action( 'wp_footer' ); echo ob_get_clean();",
      ),
      /<loyalty-launcher/,
    );
  });

  test('a shopper on a post no editor touched signs in and claims a coupon inside the launcher, through the site’s own proxy', async () => {
    settings({ launcher: 'bottom-end', launcher_label: '' });
    const context = await shop.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const proxied: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('loyalty-widgets/v1/marketing')) proxied.push(response.url());
    });
    await page.goto(`${wp.url}/?p=${post}`);
    const launcher = page.locator('loyalty-launcher');
    await launcher.locator('[part~="button"]').filter({ hasText: 'Rewards' }).click();
    await launcher.locator('dialog[open]').waitFor();
    const popupOpened = page.waitForEvent('popup');
    await launcher.getByRole('button', { name: 'Sign in with your loyalty wallet' }).click();
    await signInOnPopup(await popupOpened);
    await launcher.locator('[part~="user"]').filter({ hasText: 'Signed in as demo' }).waitFor({ timeout: 15_000 });
    const claim = launcher.locator('campaign-carousel coupon-claim').first();
    await claim.getByRole('button', { name: 'Get coupon' }).click();
    const code = (await claim.locator('[part~="code"]').textContent({ timeout: 15_000 }))?.trim();
    assert.ok(code, 'a coupon code');
    await launcher.locator('[part~="coupon-list"] coupon-claim [part~="code"]').filter({ hasText: code }).waitFor();
    assert.ok(proxied.length > 0, 'the launcher’s elements asked the site’s own proxy route');
  });
});
