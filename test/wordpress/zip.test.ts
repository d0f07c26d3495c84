/**
 * What the plugin's zip holds, as a plugin directory reviewer reads it: no source-map name pointing at
 * a file it does not ship, a readme that links to the source of its minified scripts and names the
 * external services, and the languages folder its `Domain Path` names, with every translatable string.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';

const ZIP = 'build/wordpress/loyalty-widgets.zip';

describe('the plugin’s zip', { skip: !existsSync(ZIP) && `${ZIP} is missing: run npm run build` }, () => {
  const files = existsSync(ZIP) ? unzipSync(new Uint8Array(readFileSync(ZIP))) : {};
  const text = (name: string): string => {
    assert.ok(files[`loyalty-widgets/${name}`], `the zip holds ${name}`);
    return strFromU8(files[`loyalty-widgets/${name}`]!);
  };

  test('every source map a shipped file names is shipped too', () => {
    let scripts = 0;
    for (const [name, data] of Object.entries(files)) {
      if (!/\.(js|css)$/.test(name)) continue;
      scripts++;
      for (const [, map] of strFromU8(data).matchAll(/[#@] sourceMappingURL=(\S+?)(?:\s|\*\/|$)/g)) {
        const shipped = new URL(map!, `file:///${name}`).pathname.slice(1);
        assert.ok(files[shipped], `${name} names ${map}, which the zip does not hold`);
      }
    }
    assert.ok(scripts > 10, `${scripts} scripts and stylesheets`);
  });

  test('the readme states the same "Requires PHP" and "Requires at least" as the plugin’s header', () => {
    const header = text('loyalty-widgets.php');
    const readme = text('readme.txt');
    for (const field of ['Requires PHP', 'Requires at least']) {
      const stated = (source: string, prefix: string) =>
        new RegExp(`^${prefix}${field}:\\s*(\\S+)\\s*$`, 'm').exec(source)?.[1];
      assert.ok(stated(header, ' \\* '), `the header states ${field}`);
      assert.equal(stated(readme, ''), stated(header, ' \\* '), field);
    }
  });

  test('the readme links to the source of the minified scripts, at this version, and names the external services', () => {
    const readme = text('readme.txt');
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    assert.match(readme, /^== Source code ==$/m);
    assert.ok(readme.includes(`https://www.npmjs.com/package/loyalty-widgets/v/${version}`), 'the source link');
    const services = readme.split(/^== External services ==$/m)[1]?.split(/^== /m)[0] ?? '';
    assert.match(services, /\*\*Connect\*\*/);
    assert.match(services, /\*\*The Marketing API\*\*/);
    assert.match(services, /When a\s+shopper presses a sign-in button/, 'when Connect is used');
    assert.match(services, /API key/, 'what the proxy sends the Marketing API');
  });

  test('the Domain Path folder is shipped, with a template of every translatable string', () => {
    const domainPath = /^ \* Domain Path:\s+\/(\S+)$/m.exec(text('loyalty-widgets.php'))?.[1];
    assert.equal(domainPath, 'languages');
    const pot = text(`${domainPath}/loyalty-widgets.pot`);
    const entries = [...pot.matchAll(/^(#\. .*\n)?#: (.*)\n(?:msgctxt "(.*)"\n)?msgid "(.*)"\nmsgstr ""$/gm)].map(
      ([, comment, references, context, msgid]) => ({ comment, references, context, msgid: msgid ?? '' }),
    );
    const find = (msgid: string, context?: string) =>
      entries.find((entry) => entry.msgid === msgid && entry.context === context);
    assert.ok(entries.length >= 40, `${entries.length} strings`);
    assert.match(find('Signing in…')?.references ?? '', /includes\/callback\.php:\d+/);
    assert.equal(find('Sign-in opens')?.references, 'editor/blocks.js', 'the editor script, by its shipped name');
    assert.ok(find('Loyalty coupon', 'block title'), 'block.json titles');
    assert.ok(find('loyalty', 'block keyword'), 'block.json keywords');
    assert.match(find('Loyalty widgets')?.comment ?? '', /Plugin Name of the plugin/);
    const origins = entries.find((entry) => entry.msgid.startsWith('Token origins: these are not https origins'));
    assert.match(origins?.comment ?? '', /translators: %s: the values that are not origins\./);
    assert.ok(find("Language: use a language tag such as fr or fr-CA, or leave it empty for the page's language."));
    // A plural string (_n) with both forms, under its translators' comment.
    assert.match(
      pot,
      /#\. translators: %d: how many keys\.\n#: includes\/proxy\/doctor\.php:\d+\nmsgid "Connect answers, with %d signing key\."\nmsgid_plural "Connect answers, with %d signing keys\."\nmsgstr\[0\] ""\nmsgstr\[1\] ""\n/,
    );
    // Every call in the PHP names a string the template holds.
    for (const name of Object.keys(files).filter((file) => file.endsWith('.php'))) {
      for (const [, literal] of strFromU8(files[name]!).matchAll(
        /\b(?:__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e)\(\s*'((?:\\.|[^'\\])*)'\s*,\s*'loyalty-widgets'/g,
      )) {
        const msgid = literal!.replace(/\\(.)/g, '$1');
        assert.ok(
          entries.some((entry) => entry.msgid === msgid.replaceAll('"', '\\"')),
          `${name}: "${msgid}" is in the template`,
        );
      }
    }
  });
});
