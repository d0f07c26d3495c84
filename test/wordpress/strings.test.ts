/**
 * The plugin's strings are translatable: every gettext call in its PHP and its block editor script
 * names the plugin's text domain, which the plugin header declares; and its PHP passes `php -l`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const plugin = 'integrations/wordpress';
const files = readdirSync(plugin, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.(php|ts)$/.test(name) && !name.endsWith('.d.ts'))
  .map((name) => join(plugin, name));
const GETTEXT =
  /\b(?:__|_e|_x|_n|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(\s*(['"])(?:\\.|(?!\1).)*\1\s*,\s*([^)]*)\)/g;

test('every translatable string names the text domain the plugin header declares', () => {
  const header = readFileSync(join(plugin, 'loyalty-widgets.php'), 'utf8');
  assert.match(header, /^ \* Text Domain:\s+loyalty-widgets$/m);
  let calls = 0;
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(GETTEXT)) {
      calls++;
      assert.equal(match[2]!.trim(), "'loyalty-widgets'", `${file}: ${match[0]}`);
    }
  }
  assert.ok(calls >= 30, `${calls} translatable strings found`);
});

test('the plugin’s PHP parses', { skip: spawnSync('php', ['-v']).status !== 0 && 'php-cli is not installed' }, () => {
  for (const file of files.filter((name) => name.endsWith('.php'))) {
    const lint = spawnSync('php', ['-l', file], { encoding: 'utf8' });
    assert.equal(lint.status, 0, `${file}: ${lint.stdout}${lint.stderr}`);
  }
});
