/**
 * The WordPress plugin's translation template, languages/loyalty-widgets.pot, written from its
 * sources as `wp i18n make-pot` would: the plugin header's name and description, every gettext call
 * in its PHP and its block editor script, and the block.json titles, descriptions and keywords.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DOMAIN = 'loyalty-widgets';
const STRING = String.raw`'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"`;
/** The gettext functions, by the position of each argument: text, plural, context and domain. */
export const GETTEXT_FUNCTIONS: Record<string, { text: number; plural?: number; context?: number; domain: number }> = {
  __: { text: 0, domain: 1 },
  _e: { text: 0, domain: 1 },
  esc_html__: { text: 0, domain: 1 },
  esc_html_e: { text: 0, domain: 1 },
  esc_attr__: { text: 0, domain: 1 },
  esc_attr_e: { text: 0, domain: 1 },
  _x: { text: 0, context: 1, domain: 2 },
  esc_html_x: { text: 0, context: 1, domain: 2 },
  esc_attr_x: { text: 0, context: 1, domain: 2 },
  _n: { text: 0, plural: 1, domain: 3 },
  _nx: { text: 0, plural: 1, context: 3, domain: 4 },
};
const CALL = new RegExp(String.raw`\b(${Object.keys(GETTEXT_FUNCTIONS).join('|')})\(`, 'g');
const LITERAL = new RegExp(String.raw`^\s*(${STRING})\s*$`);

/** Every gettext call in a PHP or TypeScript source: the function's name, where it is, its arguments' text. */
export function gettextCalls(source: string): { name: string; index: number; args: string[] }[] {
  return [...source.matchAll(CALL)].map((match) => ({
    name: match[1]!,
    index: match.index,
    args: callArguments(source, match.index + match[0].length),
  }));
}

/** A call's arguments from just after its `(`: split at top-level commas, up to its `)`. */
function callArguments(source: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = start;
  for (let index = start; index < source.length; index++) {
    const character = source[index];
    if (character === "'" || character === '"') {
      for (index++; index < source.length && source[index] !== character; index++) if (source[index] === '\\') index++;
    } else if (character === '(' || character === '[') depth++;
    else if ((character === ')' || character === ']') && depth > 0) depth--;
    else if (character === ')' || (character === ',' && depth === 0)) {
      args.push(source.slice(from, index));
      from = index + 1;
      if (character === ')') break;
    }
  }
  return args;
}

const TRANSLATORS = /\/[*/]\s*(translators:.*?)\s*(?:\*\/)?\s*$/;

interface Entry {
  context?: string;
  plural?: string;
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
  const add = (text: string, reference: string, context?: string, comment?: string, plural?: string): void => {
    const key = `${context ?? ''}\u0004${text}`;
    const entry = entries.get(key) ?? { context, plural, comments: new Set<string>(), references: [] };
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
    for (const { name: call, index, args } of gettextCalls(source)) {
      const at = GETTEXT_FUNCTIONS[call]!;
      const literal = (position: number | undefined): string | undefined => {
        const found = position === undefined ? undefined : LITERAL.exec(args[position] ?? '')?.[1];
        return found === undefined ? undefined : unquote(found);
      };
      const [text, domain] = [literal(at.text), literal(at.domain)];
      if (domain !== DOMAIN) continue;
      if (text === undefined || (at.plural !== undefined && literal(at.plural) === undefined))
        throw new Error(`${name}: ${call}() with a text that is not a string literal cannot be translated`);
      const line = source.slice(0, index).split('\n').length;
      // A translators' comment on one of the two lines before the call.
      const comment = source
        .slice(0, index)
        .split('\n')
        .slice(-3)
        .map((text) => TRANSLATORS.exec(text)?.[1])
        .filter(Boolean)
        .pop();
      // The editor script ships compiled: `wp i18n make-json` groups its strings by that file's name.
      const reference = name.endsWith('.ts') ? name.replace(/\.ts$/, '.js') : `${name}:${line}`;
      add(text, reference, literal(at.context), comment, literal(at.plural));
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
    if (entry.plural === undefined) lines.push(`msgid ${potString(text)}`, 'msgstr ""');
    else
      lines.push(`msgid ${potString(text)}`, `msgid_plural ${potString(entry.plural)}`, 'msgstr[0] ""', 'msgstr[1] ""');
  }
  return `${lines.join('\n')}\n`;
}
