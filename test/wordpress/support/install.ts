/** The plugin as an upload leaves it: the built zip unpacked into the site's plugins and activated. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import type { RunningWordPress } from './wordpress.ts';

export async function installPluginFromZip(wp: RunningWordPress, zip: string): Promise<void> {
  assert.ok(existsSync(zip), `${zip} is missing: run npm run build`);
  for (const [name, data] of Object.entries(unzipSync(new Uint8Array(await readFile(zip))))) {
    if (name.endsWith('/')) continue;
    const path = join(wp.folder, 'site/wp-content/plugins', name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  }
  wp.php(
    "$result = activate_plugin( 'loyalty-widgets/loyalty-widgets.php' ); if ( is_wp_error( $result ) ) { throw new Exception( $result->get_error_message() ); }",
  );
}
