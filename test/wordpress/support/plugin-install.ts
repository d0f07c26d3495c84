/**
 * The plugin installed from its source folder with the contract.json the build writes (as its zip
 * holds them), and activated: for suites that need the plugin's PHP but not the script tag's build.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proxyContractJson } from '../../../scripts/proxy-contract.ts';
import type { RunningWordPress } from './wordpress.ts';

const PLUGIN = fileURLToPath(new URL('../../../integrations/wordpress', import.meta.url));

export function installPluginFromSource(wp: RunningWordPress): void {
  const installed = join(wp.folder, 'site/wp-content/plugins/loyalty-widgets');
  mkdirSync(installed, { recursive: true });
  cpSync(PLUGIN, installed, { recursive: true, filter: (path) => !path.includes('/editor') });
  writeFileSync(join(installed, 'contract.json'), proxyContractJson());
  wp.php(
    `$activated = activate_plugin( 'loyalty-widgets/loyalty-widgets.php' );
    if ( is_wp_error( $activated ) ) { throw new Exception( $activated->get_error_message() ); }`,
  );
}

/** Logs a user in over HTTP (WordPress's form) and returns the cookies to send. */
export async function logInOverHttp(wp: RunningWordPress, login: string, password: string): Promise<string> {
  const testCookie = 'wordpress_test_cookie=WP%20Cookie%20check';
  const response = await fetch(`${wp.url}/wp-login.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: testCookie },
    body: new URLSearchParams({ log: login, pwd: password, testcookie: '1', redirect_to: `${wp.url}/wp-admin/` }),
    redirect: 'manual',
  });
  if (response.status !== 302) throw new Error(`WordPress refused ${login}'s login (HTTP ${response.status})`);
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0]);
  return [testCookie, ...cookies].join('; ');
}
