/**
 * The plugin's strings are translatable: every gettext call in its PHP and its block editor script
 * names the plugin's text domain, which the plugin header declares; and its PHP passes `php -l`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GETTEXT_FUNCTIONS, gettextCalls } from '../../scripts/wordpress-pot.ts';

const plugin = 'integrations/wordpress';
const files = readdirSync(plugin, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.(php|ts)$/.test(name) && !name.endsWith('.d.ts'))
  .map((name) => join(plugin, name));

test('every translatable string names the text domain the plugin header declares', () => {
  const header = readFileSync(join(plugin, 'loyalty-widgets.php'), 'utf8');
  assert.match(header, /^ \* Text Domain:\s+loyalty-widgets$/m);
  let calls = 0;
  for (const file of files) {
    for (const { name, args } of gettextCalls(readFileSync(file, 'utf8'))) {
      calls++;
      const domain = args[GETTEXT_FUNCTIONS[name]!.domain]?.trim();
      assert.equal(domain, "'loyalty-widgets'", `${file}: ${name}( ${args.join(',')} )`);
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
