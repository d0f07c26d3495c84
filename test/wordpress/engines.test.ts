/**
 * The plugin alone, in each browser engine: no Node process serves anything but the sandbox (Connect
 * and the Marketing API). The plugin's settings take Connect's address, the app id, the Marketing API's
 * address and its key; an Author publishes a page with the sign-in, the campaigns and a members-only
 * coupon; a shopper in Chromium, Firefox and WebKit sees the campaigns, signs in through the popup and
 * claims the coupon, every Marketing call answered by the site's own REST route. The key is in no page,
 * answer or log line of the run. An engine that is not installed is skipped, except in CI.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ENGINES, missingPrograms as missingEngine } from '../support/engines.ts';
import { signInAtConnect, useShopperBrowser, waitFor } from '../support/shopper-browser.ts';
import { LATTE, problemsIn } from './support/site.ts';
import { ZIP } from './support/shop.ts';
import { phpArray, phpString, startWordPress, wordPressSkip, type RunningWordPress } from './support/wordpress.ts';
import { installPluginFromZip } from './support/install.ts';

const skip = wordPressSkip();
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

const signin = `document.querySelector('loyalty-signin-button').shadowRoot`;
const coupon = `document.querySelector('coupon-claim').shadowRoot`;
const signInButton = `${signin}.querySelector('[part~="button"][aria-busy="false"]')`;
const shownUser = `${signin}.querySelector('[part~="user"]')?.textContent`;
const code = `${coupon}.querySelector('[part~="code"]')?.textContent?.trim()`;
/** Every request the page's script made with fetch(): the widgets' Marketing calls. */
const fetched = `performance.getEntriesByType('resource').filter((entry) => entry.initiatorType === 'fetch').map((entry) => entry.name)`;

describe('the plugin alone, in each engine', { skip }, () => {
  let wp: RunningWordPress;
  let sandbox: RunningSandbox;
  let dataDir: string;
  let page: number;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loyalty-wp-engines-'));
    [wp, sandbox] = await Promise.all([startWordPress(), startSandbox({ connectPort: 0, marketingPort: 0, dataDir })]);
    await installPluginFromZip(wp, ZIP);
    const app = await sandbox.registerApp({
      name: 'Harbor shop (plugin alone)',
      redirectUris: [`${wp.url}/?loyalty-widgets-callback=1`],
    });
    wp.php(
      `update_option( 'loyalty_widgets_settings', loyalty_widgets_sanitize_settings( ${phpArray({
        authority: sandbox.connectUrl,
        client_id: app.app_id,
        marketing_url: sandbox.marketingUrl,
        members_campaigns: LATTE,
      })} ) );
      update_option( 'loyalty_widgets_marketing_key', ${phpString(sandbox.apiKey)} );`,
    );
    page = Number(
      wp.php(
        `wp_set_current_user( get_user_by( 'login', 'author' )->ID );
        echo wp_insert_post( array( 'post_type' => 'post', 'post_status' => 'publish', 'post_title' => 'Members', 'post_author' => get_current_user_id(),
          'post_content' => '<!-- wp:loyalty-widgets/loyalty-signin-button /--><!-- wp:loyalty-widgets/campaign-carousel {"limit":3} /--><!-- wp:loyalty-widgets/coupon-claim {"campaignId":"${LATTE}","requireSignin":true} /-->' ) );`,
      ),
    );
    assert.ok(page > 0, 'the Author’s post is published');
  });

  after(async () => {
    await Promise.all([wp?.close(), sandbox?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  for (const engine of ENGINES) {
    const absent = missingEngine(engine);
    describe(
      engine,
      { skip: absent.length > 0 && !inCi && `${engine} is not installed (${absent.join(', ')})` },
      () => {
        const browser = useShopperBrowser(engine, absent);

        it('shows the campaigns, signs in through the popup and claims the members-only coupon through the site’s route', async () => {
          const shopper = browser.page;
          await shopper.goto(`${wp.url}/?p=${page}`);
          await waitFor(
            shopper,
            `document.querySelector('campaign-carousel').shadowRoot.querySelector('[part~="slide"]')`,
            'the campaigns',
            20_000,
          );
          await waitFor(shopper, `${coupon}.querySelector('[part~="signin-button"]')`, 'the coupon asks for a sign-in');
          const popup = await browser.popup(() => shopper.click(signInButton));
          await signInAtConnect(popup, 'allow');
          await waitFor(shopper, `${shownUser} === 'Signed in as demo'`, 'signed in as demo', 20_000);
          await waitFor(shopper, `${coupon}.querySelector('[part~="claim-button"]')`, 'the claim button');
          const minted = sandbox.stats().couponsMinted;
          await shopper.click(`${coupon}.querySelector('[part~="claim-button"]')`);
          await waitFor(shopper, code, 'the coupon’s code', 20_000);
          assert.match(await shopper.evaluate<string>(code), /\S/);
          assert.equal(sandbox.stats().couponsMinted, minted + 1, 'one coupon minted');
          const calls = await shopper.evaluate<string[]>(fetched);
          // Connect's own documents (discovery, keys, profile) besides; the Marketing API never directly.
          const connect = new URL(sandbox.connectUrl).origin;
          const route = calls.filter((url) => /loyalty-widgets(\/|%2F)v1(\/|%2F)marketing/i.test(url));
          // The campaigns and the coupon came printed with the page; the claim went to the site's route.
          assert.ok(route.length >= 1, `the widgets asked the site's route: ${calls.join(' ')}`);
          for (const url of calls) assert.ok(route.includes(url) || url.startsWith(`${connect}/`), url);
          const html = await shopper.evaluate<string>('document.documentElement.outerHTML');
          assert.ok(!html.includes(sandbox.apiKey), 'the key is in no page');
        });
      },
    );
  }

  it('left the key in no page, answer or log line, and logged no PHP problem', async () => {
    const log = wp.takeLog();
    assert.ok(!log.includes(sandbox.apiKey), 'the key is in no log line');
    assert.deepEqual(problemsIn(log), []);
    const answer = await fetch(`${wp.url}/?rest_route=/loyalty-widgets/v1/marketing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'campaigns', variables: { limit: 2 } }),
    });
    const text = await answer.text();
    assert.equal(answer.status, 200, text);
    assert.ok(![...answer.headers.values()].some((value) => value.includes(sandbox.apiKey)), 'no header');
    assert.ok(!text.includes(sandbox.apiKey), 'no answer');
    assert.ok(!(await (await fetch(`${wp.url}/?p=${page}`)).text()).includes(sandbox.apiKey), 'no page');
  });
});
