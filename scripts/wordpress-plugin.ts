/**
 * Builds the WordPress plugin (integrations/wordpress/) into an installable zip,
 * build/wordpress/loyalty-widgets.zip (Plugins → Add New → Upload): the plugin's PHP, block.json
 * files and readme, its block editor script compiled from TypeScript to a plain script, and the
 * script tag's files from dist/ (run after `vite build`) without their source maps, which the
 * readme's link to the package's source replaces, its translation template, and `contract.json`, what
 * its Marketing proxy shares with the Node proxy (scripts/proxy-contract.ts). The plugin's version
 * must be the package's, in the readme's source link too.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { proxyContractJson } from './proxy-contract.ts';
import { potFile } from './wordpress-pot.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const plugin = join(root, 'integrations/wordpress');
const dist = join(root, 'dist');
const PLUGIN_ZIP = join(root, 'build/wordpress/loyalty-widgets.zip');

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
}

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const main = readFileSync(join(plugin, 'loyalty-widgets.php'), 'utf8');
const readme = readFileSync(join(plugin, 'readme.txt'), 'utf8');
const stated = [
  main.match(/^ \* Version:\s+(\S+)/m)?.[1],
  main.match(/'LOYALTY_WIDGETS_VERSION', '([^']+)'/)?.[1],
  readme.match(/^Stable tag:\s+(\S+)/m)?.[1],
  readme.match(/npmjs\.com\/package\/loyalty-widgets\/v\/(\S+?)[?\s]/)?.[1],
];
if (stated.some((value) => value !== version)) {
  throw new Error(`The WordPress plugin states version ${stated.join(', ')}; package.json says ${version}.`);
}
if (!existsSync(join(dist, 'loyalty-widgets.js'))) throw new Error('dist/ is not built: run vite build first.');

const files: Zippable = {};
const add = (path: string, data: Uint8Array): void => {
  files[`loyalty-widgets/${path}`] = data;
};

for (const path of filesUnder(plugin)) {
  const name = relative(plugin, path).replaceAll('\\', '/');
  if (name.startsWith('editor/')) continue;
  add(name, readFileSync(path));
}
const editorSource = readFileSync(join(plugin, 'editor/blocks.ts'), 'utf8');
const editor = ts.transpileModule(editorSource, {
  compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.None, removeComments: false },
  fileName: 'blocks.ts',
});
// Wrapped, so its constants never meet another script's in the page's global scope.
add('editor/blocks.js', strToU8(`(() => {\n${editor.outputText}})();\n`));
add('contract.json', strToU8(proxyContractJson()));

// What the script tag and the sign-in callback load; not the server, type or source-map files, and
// no comment naming a map the zip does not hold.
for (const path of filesUnder(dist)) {
  const name = relative(dist, path).replaceAll('\\', '/');
  if (/^(server|types|\.vite)\//.test(name) || name.endsWith('.map')) continue;
  const data = readFileSync(path);
  add(
    `dist/${name}`,
    /\.(js|css)$/.test(name)
      ? strToU8(data.toString('utf8').replace(/\n?\/[/*]# sourceMappingURL=\S+(?: \*\/)?\s*$/, '\n'))
      : data,
  );
}
// `Domain Path: /languages` in the header names this folder.
add('languages/loyalty-widgets.pot', strToU8(potFile(plugin, version)));
add('LICENSE', readFileSync(join(root, 'LICENSE')));

mkdirSync(join(root, 'build/wordpress'), { recursive: true });
const zip = zipSync(files, { level: 9, mtime: new Date('2020-01-01T00:00:00Z') });
writeFileSync(PLUGIN_ZIP, zip);
console.log(
  `WordPress plugin: ${relative(root, PLUGIN_ZIP)} (${(zip.byteLength / 1000).toFixed(1)} kB, ${Object.keys(files).length} files)`,
);
