/**
 * The WordPress plugin's translation template, languages/loyalty-widgets.pot, written from its
 * sources as `wp i18n make-pot` would: the plugin header's name and description, every gettext call
 * in its PHP and its block editor script, and the block.json titles, descriptions and keywords.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DOMAIN = 'loyalty-widgets';
const STRING = String.raw`'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"`;
/** `__( 'text', 'domain' )` and its kin; `_x` and `esc_*_x` take a context before the domain. */
const CALL = new RegExp(
  String.raw`\b(__|_e|esc_html__|esc_html_e|esc_attr__|esc_attr_e|_x|esc_html_x|esc_attr_x|_n|_nx)\(\s*(${STRING})\s*,\s*(${STRING})(?:\s*,\s*(${STRING}))?`,
  'g',
);
const TRANSLATORS = /\/[*/]\s*(translators:.*?)\s*(?:\*\/)?\s*$/;

interface Entry {
  context?: string;
  comments: Set<string>;
  references: string[];
}

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, (_, character: string) => (character === 'n' ? '\n' : character));
}

function potString(text: string): string {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;
}

/** The .pot file for the plugin in `folder`. */
export function potFile(folder: string, version: string): string {
  const entries = new Map<string, Entry>();
  const add = (text: string, reference: string, context?: string, comment?: string): void => {
    const key = `${context ?? ''}\u0004${text}`;
    const entry = entries.get(key) ?? { context, comments: new Set<string>(), references: [] };
    if (comment) entry.comments.add(comment);
    entry.references.push(reference);
    entries.set(key, entry);
  };

  const header = readFileSync(join(folder, 'loyalty-widgets.php'), 'utf8');
  for (const field of ['Plugin Name', 'Description']) {
    const value = header.match(new RegExp(`^ \\* ${field}:\\s+(.+)$`, 'm'))?.[1];
    if (value) add(value.trim(), 'loyalty-widgets.php', undefined, `${field} of the plugin`);
  }

  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => name.replaceAll('\\', '/'))
    .sort();
  for (const name of files.filter((file) => /\.(php|ts)$/.test(file) && !file.endsWith('.d.ts'))) {
    const source = readFileSync(join(folder, name), 'utf8');
    for (const match of source.matchAll(CALL)) {
      const [, call, text, second, third] = match as unknown as [string, string, string, string, string?];
      if (call.startsWith('_n')) throw new Error(`${name}: plural strings (${call}) are not written to the .pot yet`);
      const hasContext = call.endsWith('_x');
      const domain = hasContext ? third : second;
      if (!domain || unquote(domain) !== DOMAIN) continue;
      const line = source.slice(0, match.index).split('\n').length;
      // A translators' comment on one of the two lines before the call.
      const comment = source
        .slice(0, match.index)
        .split('\n')
        .slice(-3)
        .map((text) => TRANSLATORS.exec(text)?.[1])
        .filter(Boolean)
        .pop();
      // The editor script ships compiled: `wp i18n make-json` groups its strings by that file's name.
      const reference = name.endsWith('.ts') ? name.replace(/\.ts$/, '.js') : `${name}:${line}`;
      add(unquote(text), reference, hasContext ? unquote(second) : undefined, comment);
    }
  }
  for (const name of files.filter((file) => file.endsWith('block.json'))) {
    const block = JSON.parse(readFileSync(join(folder, name), 'utf8')) as {
      title?: string;
      description?: string;
      keywords?: string[];
    };
    if (block.title) add(block.title, name, 'block title');
    if (block.description) add(block.description, name, 'block description');
    for (const keyword of block.keywords ?? []) add(keyword, name, 'block keyword');
  }

  const lines = [
    '# This file is distributed under the same licence as the Loyalty widgets plugin (MIT).',
    'msgid ""',
    'msgstr ""',
    `"Project-Id-Version: Loyalty widgets ${version}\\n"`,
    '"MIME-Version: 1.0\\n"',
    '"Content-Type: text/plain; charset=UTF-8\\n"',
    '"Content-Transfer-Encoding: 8bit\\n"',
    `"X-Domain: ${DOMAIN}\\n"`,
  ];
  for (const [key, entry] of entries) {
    const text = key.slice(key.indexOf('\u0004') + 1);
    lines.push('');
    for (const comment of entry.comments) lines.push(`#. ${comment}`);
    lines.push(`#: ${entry.references.join(' ')}`);
    if (entry.context !== undefined) lines.push(`msgctxt ${potString(entry.context)}`);
    lines.push(`msgid ${potString(text)}`, 'msgstr ""');
  }
  return `${lines.join('\n')}\n`;
}
