/**
 * The plugin's own Marketing proxy as a site's Administrator sets it up, in Debian's WordPress 6.1:
 * the Marketing API's address and key on the settings page (a wrong key or address named on save,
 * the key never printed back, nor in WordPress's list of options), the key from wp-config.php
 * winning, Site Health running the doctor's checks, the route under pretty permalinks, and
 * uninstalling leaving nothing behind.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { installPluginFromSource, logInOverHttp } from './support/plugin-install.ts';
import { problemsIn } from './support/site.ts';
import {
  phpArray,
  phpString,
  startWordPress,
  USERS,
  wordPressSkip,
  type RunningWordPress,
} from './support/wordpress.ts';

const skip = wordPressSkip();

const KEY = 'admin-suite-key-8c41f0d2';

describe('the WordPress plugin’s own Marketing proxy, set up by an Administrator', { skip }, () => {
  let wp: RunningWordPress;
  let sandbox: RunningSandbox;
  let dataDir: string;
  let clientId: string;
  let cookie: string;
  /** Every page and answer of the run, searched for the key at the end. */
  const seen: string[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'loyalty-wp-admin-'));
    [wp, sandbox] = await Promise.all([
      startWordPress(),
      startSandbox({ connectPort: 0, marketingPort: 0, dataDir, apiKey: KEY }),
    ]);
    installPluginFromSource(wp);
    clientId = (
      await sandbox.registerApp({ name: 'Harbor shop', redirectUris: [`${wp.url}/?loyalty-widgets-callback=1`] })
    ).app_id;
    cookie = await logInOverHttp(wp, USERS.administrator.login, USERS.administrator.password);
  });
  after(async () => {
    await Promise.all([wp?.close(), sandbox?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const adminPage = async (path: string): Promise<string> => {
    const response = await fetch(`${wp.url}/wp-admin/${path}`, { headers: { cookie } });
    const html = await response.text();
    seen.push(html, ...[...response.headers].map(([name, value]) => `${name}: ${value}`));
    assert.equal(response.status, 200, path);
    return html;
  };
  /** Submits the settings form as the browser does, with the page's nonce; returns the page shown after. */
  const saveSettings = async (fields: Record<string, string>, key = ''): Promise<string> => {
    const form = await adminPage('options-general.php?page=loyalty-widgets');
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(form)![1]!;
    const body = new URLSearchParams({
      option_page: 'loyalty_widgets',
      action: 'update',
      _wpnonce: nonce,
      _wp_http_referer: '/wp-admin/options-general.php?page=loyalty-widgets',
      loyalty_widgets_marketing_key: key,
    });
    for (const [name, value] of Object.entries(fields)) body.set(`loyalty_widgets_settings[${name}]`, value);
    const response = await fetch(`${wp.url}/wp-admin/options.php`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    });
    assert.equal(response.status, 302, 'options.php saves and goes back to the page');
    return adminPage('options-general.php?page=loyalty-widgets&settings-updated=true');
  };
  const settings = (marketingUrl = sandbox.marketingUrl) => ({
    authority: sandbox.connectUrl,
    client_id: clientId,
    marketing_url: marketingUrl,
  });
  /** Tools → Site Health as the Administrator opens it: its direct tests run with the page, their results in its script data. */
  const siteHealth = async (): Promise<Record<string, { status: string; label: string; description: string }>> => {
    const html = await adminPage('site-health.php');
    const data = /var SiteHealth = (\{.*?\});\n/s.exec(html)?.[1];
    assert.ok(data, 'the page carries its results');
    const results = (
      JSON.parse(data) as {
        site_status: { direct: { test: string; status: string; label: string; description: string }[] };
      }
    ).site_status.direct;
    return Object.fromEntries(
      results.filter((result) => result.test.startsWith('loyalty_widgets_')).map((result) => [result.test, result]),
    );
  };

  test('"Requires PHP" and "Requires at least" state the PHP and WordPress this suite runs on', () => {
    const stated = JSON.parse(
      wp.php(
        "$data = get_plugin_data( WP_PLUGIN_DIR . '/loyalty-widgets/loyalty-widgets.php' ); echo wp_json_encode( array( $data['RequiresPHP'], $data['RequiresWP'], PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION, get_bloginfo( 'version' ) ) );",
      ),
    ) as [string, string, string, string];
    assert.equal(stated[0], stated[2], 'Requires PHP');
    assert.ok(stated[3].startsWith(`${stated[1]}.`), `Requires at least ${stated[1]}, running ${stated[3]}`);
  });

  test('the endpoint defaults to the site’s own route, which answers before any setting with 503 not_configured', async () => {
    const html = await (await fetch(`${wp.url}/`)).text();
    const endpoint = /<meta name="loyalty-endpoint" content="([^"]+)"/.exec(html)?.[1];
    assert.equal(endpoint, '/index.php?rest_route=/loyalty-widgets/v1/marketing');
    const answer = await fetch(`${wp.url}${endpoint!.replaceAll('&amp;', '&')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'campaigns' }),
    });
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'not_configured');
    assert.equal(answer.headers.get('loyalty-proxy'), '1');
  });

  test('a wrong key, an unreachable or a plain-http address is named on save; the right ones are saved', async () => {
    const wrongKey = await saveSettings(settings(), 'not-the-key');
    assert.match(wrongKey, /The Marketing API refused the key \(HTTP 401/);
    const unreachable = await saveSettings(settings('http://127.0.0.1:9/graphql'), KEY);
    assert.match(unreachable, /The Marketing API cannot be reached at http:\/\/127\.0\.0\.1:9\/graphql/);
    const plainHttp = await saveSettings(settings('http://marketing.example/graphql'));
    assert.match(plainHttp, /Marketing API: enter its https address/);
    assert.equal(
      wp.php("echo get_option( 'loyalty_widgets_settings' )['marketing_url'];"),
      'http://127.0.0.1:9/graphql',
    );

    const saved = await saveSettings(settings(), KEY);
    assert.doesNotMatch(saved, /notice-error|class="error/);
    assert.match(saved, /A key is saved/);
    const answer = await fetch(`${wp.url}/?rest_route=/loyalty-widgets/v1/marketing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'campaigns', variables: { limit: 1 } }),
    });
    seen.push(await answer.text());
    assert.equal(answer.status, 200);
    // An empty key field keeps the saved key.
    await saveSettings({ ...settings(), currency: 'EUR' });
    assert.equal(wp.php('echo loyalty_widgets_marketing_key() === ' + phpString(KEY) + " ? 'kept' : 'lost';"), 'kept');
  });

  test('Site Health runs the doctor’s checks: Marketing reachable with the key, each operation, Connect, the redirect URI', async () => {
    const good = await siteHealth();
    assert.deepEqual(Object.keys(good).sort(), [
      'loyalty_widgets_connect',
      'loyalty_widgets_marketing',
      'loyalty_widgets_operations',
      'loyalty_widgets_redirect_uri',
    ]);
    for (const [name, result] of Object.entries(good))
      assert.equal(result.status, 'good', `${name}: ${result.description}`);
    for (const operation of ['campaigns', 'campaign', 'businessAccounts', 'requestCoupon'])
      assert.match(good.loyalty_widgets_operations!.description, new RegExp(`${operation} fits the schema`));

    wp.php(`update_option( 'loyalty_widgets_marketing_key', 'not-the-key' );`);
    wp.php(
      `update_option( 'loyalty_widgets_settings', array_merge( get_option( 'loyalty_widgets_settings' ), ${phpArray({ client_id: 'unknown-app' })} ) );`,
    );
    try {
      const bad = await siteHealth();
      assert.equal(bad.loyalty_widgets_marketing!.status, 'critical');
      assert.match(bad.loyalty_widgets_marketing!.description, /refused the key/);
      assert.equal(bad.loyalty_widgets_redirect_uri!.status, 'critical');
      assert.equal(bad.loyalty_widgets_connect!.status, 'good');
    } finally {
      wp.php(`update_option( 'loyalty_widgets_marketing_key', ${phpString(KEY)} );`);
      wp.php(
        `update_option( 'loyalty_widgets_settings', array_merge( get_option( 'loyalty_widgets_settings' ), ${phpArray({ client_id: clientId })} ) );`,
      );
    }
  });

  test('the key from wp-config.php wins over the saved one, and the page says where it is', async () => {
    const constant = join(wp.folder, 'site/wp-content/mu-plugins/marketing-key.php');
    writeFileSync(constant, `<?php\ndefine( 'LOYALTY_WIDGETS_MARKETING_API_KEY', ${phpString(KEY)} );\n`);
    wp.php(`update_option( 'loyalty_widgets_marketing_key', 'not-the-key' );`);
    try {
      assert.match(await adminPage('options-general.php?page=loyalty-widgets'), /Set in wp-config\.php/);
      const answer = await fetch(`${wp.url}/?rest_route=/loyalty-widgets/v1/marketing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'businessAccounts', variables: { limit: 1 } }),
      });
      assert.equal(answer.status, 200, await answer.text());
    } finally {
      rmSync(constant);
      wp.php(`update_option( 'loyalty_widgets_marketing_key', ${phpString(KEY)} );`);
    }
  });

  test('the route answers under pretty permalinks at /wp-json/loyalty-widgets/v1/marketing', async () => {
    wp.php("update_option( 'permalink_structure', '/%postname%/' ); flush_rewrite_rules();");
    try {
      const answer = await fetch(`${wp.url}/wp-json/loyalty-widgets/v1/marketing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: wp.url },
        body: JSON.stringify({ operation: 'campaign', variables: { id: 'camp-harbor-beans' } }),
      });
      assert.equal(answer.status, 200);
      assert.equal(
        ((await answer.json()) as { data: { campaign: { id: string } } }).data.campaign.id,
        'camp-harbor-beans',
      );
      assert.equal(wp.php("echo loyalty_widgets_settings()['endpoint'];"), '/wp-json/loyalty-widgets/v1/marketing');
    } finally {
      wp.php("update_option( 'permalink_structure', '' ); flush_rewrite_rules();");
    }
  });

  test('the key is in no page, answer or header of the run, not even WordPress’s list of every option', async () => {
    seen.push(await adminPage('options.php'));
    for (const text of seen) assert.ok(!text.includes(KEY));
    assert.ok(!wp.takeLog().includes(KEY));
  });

  test('uninstalling removes every option, the table and the transients', () => {
    assert.equal(
      wp.php('global $wpdb; echo $wpdb->get_var( "SHOW TABLES LIKE \'{$wpdb->prefix}loyalty_widgets_proxy\'" );'),
      'wp_loyalty_widgets_proxy',
    );
    assert.ok(
      Number(
        wp.php(
          'global $wpdb; echo $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE \'_transient_loyalty_widgets_%\'" );',
        ),
      ) > 0,
    );
    wp.php(
      `deactivate_plugins( 'loyalty-widgets/loyalty-widgets.php' );
      uninstall_plugin( 'loyalty-widgets/loyalty-widgets.php' );`,
    );
    assert.equal(
      wp.php(
        `global $wpdb;
        echo wp_json_encode( array(
          'options' => $wpdb->get_col( "SELECT option_name FROM {$wpdb->options} WHERE option_name LIKE '%loyalty_widgets%'" ),
          'table'   => $wpdb->get_var( "SHOW TABLES LIKE '{$wpdb->prefix}loyalty_widgets_proxy'" ),
        ) );`,
      ),
      '{"options":[],"table":null}',
    );
    assert.deepEqual(problemsIn(wp.takeLog()), [], 'no PHP notice, warning or error');
  });
});
