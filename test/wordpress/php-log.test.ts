/**
 * The PHP log check the WordPress tests end each test with: every notice, warning and error fails a
 * test, but for what WordPress itself logs when WordPress.org cannot be reached, and never a line of
 * the plugin's. Then the same check on a real offline WordPress: the dashboard's news feeds and the
 * update checks, fetched as the dashboard does, give WordPress's own offline answers and nothing else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { problemsIn } from './support/site.ts';
import { startWordPress, wordPressSkip, type RunningWordPress } from './support/wordpress.ts';

const at = (file: string, line = 12) => ` in /usr/share/wordpress/${file} on line ${line}`;
const UPDATE_OFFLINE =
  '[27-Nov-2026 10:00:00 UTC] PHP Warning:  An unexpected error occurred. Something may be wrong with WordPress.org or this server&#8217;s configuration. (WordPress could not establish a secure connection to WordPress.org.)';
const FEED_OFFLINE =
  '[27-Nov-2026 10:00:00 UTC] PHP Notice: A feed could not be found at `https://wordpress.org/news/feed/`; the status code is `503` and content-type is ``';

test('WordPress’s own offline lines pass; the same words from the plugin or of another host do not', () => {
  assert.deepEqual(
    problemsIn(
      [UPDATE_OFFLINE + at('wp-includes/update.php'), FEED_OFFLINE + at('wp-includes/class-simplepie.php')].join('\n'),
    ),
    [],
  );
  const failing = [
    UPDATE_OFFLINE + ' in /tmp/site/wp-content/plugins/loyalty-widgets/includes/proxy.php on line 3',
    FEED_OFFLINE.replace('wordpress.org', 'evil.example') + at('wp-includes/class-simplepie.php'),
    FEED_OFFLINE.replace('https://wordpress.org', 'https://wordpress.org.evil.example') +
      at('wp-includes/class-simplepie.php'),
    FEED_OFFLINE + at('wp-includes/functions.php'),
    '[27-Nov-2026 10:00:00 UTC] PHP Warning:  Undefined array key "content-type"' +
      at('wp-includes/class-simplepie.php', 1741),
    '[27-Nov-2026 10:00:00 UTC] PHP Deprecated:  strlen(): Passing null' +
      ' in /tmp/site/wp-content/plugins/loyalty-widgets/x.php on line 1',
  ];
  for (const line of failing) assert.deepEqual(problemsIn(line), [line]);
  assert.deepEqual(problemsIn('[27-Nov-2026 10:00:00 UTC] PHP Deprecated:  x' + at('wp-includes/x.php')), []);
});

describe('an offline WordPress', { skip: wordPressSkip() }, () => {
  let wp: RunningWordPress;
  before(async () => {
    wp = await startWordPress();
  });
  after(async () => {
    await wp?.close();
  });

  test('the dashboard’s news feeds and the update checks get WordPress’s offline answers and log nothing else', () => {
    wp.takeLog();
    const shown = wp.php(`
      require_once ABSPATH . 'wp-admin/includes/dashboard.php';
      require_once ABSPATH . 'wp-admin/includes/update.php';
      wp_version_check( array(), true );
      wp_update_plugins();
      wp_update_themes();
      $feeds = array(
        'news'   => array( 'url' => 'https://wordpress.org/news/feed/', 'items' => 1, 'show_summary' => 0, 'show_author' => 0, 'show_date' => 0 ),
        'planet' => array( 'url' => 'https://planet.wordpress.org/feed/', 'items' => 3, 'show_summary' => 0, 'show_author' => 0, 'show_date' => 0 ),
      );
      wp_dashboard_primary_output( 'dashboard_primary', $feeds );
    `);
    assert.match(shown, /RSS Error:<\/strong> WP HTTP Error: cURL error 6: Could not resolve host: wordpress\.org/);
    assert.match(shown, /Could not resolve host: planet\.wordpress\.org/);
    const log = wp.takeLog();
    assert.match(log, /WordPress could not establish a secure connection to WordPress\.org/, 'the update checks ran');
    assert.deepEqual(problemsIn(log), []);
  });
});
