/**
 * Walks a first page's template (./first-page-template.ts) over a display model
 * (./first-page-display.ts) and prints HTML.
 * Every value from the display model is escaped: the five characters below, in text and attributes
 * alike, so what the upstream wrote is only ever text. The WordPress plugin's PHP renderer escapes
 * with the same table, which keeps the two byte for byte alike.
 */
import type { MarkupNode } from './first-page-template.ts';

export type DisplayValue = string | boolean | DisplayModel[];
export interface DisplayModel {
  [field: string]: DisplayValue;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** Elements printed with no children and no end tag. */
export const VOID_ELEMENTS: readonly string[] = ['img', 'br'];
const VOID = new Set(VOID_ELEMENTS);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A field's value, from the innermost entry outwards. */
function lookup(scopes: readonly DisplayModel[], name: string): DisplayValue | undefined {
  for (let index = scopes.length - 1; index >= 0; index--) {
    if (Object.hasOwn(scopes[index]!, name)) return scopes[index]![name];
  }
  return undefined;
}

const present = (value: DisplayValue | undefined): boolean =>
  value === true || (typeof value === 'string' && value !== '') || (Array.isArray(value) && value.length > 0);

const textOf = (value: DisplayValue | undefined): string => (typeof value === 'string' ? value : '');

function print(nodes: readonly MarkupNode[], scopes: readonly DisplayModel[]): string {
  let html = '';
  for (const node of nodes) {
    if ('text' in node) html += escapeHtml(textOf(lookup(scopes, node.text)));
    else if ('each' in node) {
      const entries = lookup(scopes, node.each);
      for (const entry of Array.isArray(entries) ? entries : []) html += print(node.children, [...scopes, entry]);
    } else if ('when' in node) {
      if (present(lookup(scopes, node.when))) html += print(node.children, scopes);
    } else if ('unless' in node) {
      if (!present(lookup(scopes, node.unless))) html += print(node.children, scopes);
    } else {
      const tag = typeof node.el === 'string' ? node.el : textOf(lookup(scopes, node.el.field));
      if (typeof node.el !== 'string' && !HEADINGS.has(tag)) throw new TypeError(`"${tag}" is not a heading.`);
      let attributes = '';
      for (const [name, value] of Object.entries(node.attrs ?? {})) {
        const text = typeof value === 'string' ? value : textOf(lookup(scopes, value.field));
        if (typeof value === 'string' || text !== '') attributes += ` ${name}="${escapeHtml(text)}"`;
      }
      html += VOID.has(tag)
        ? `<${tag}${attributes}>`
        : `<${tag}${attributes}>${print(node.children ?? [], scopes)}</${tag}>`;
    }
  }
  return html;
}

/** The HTML of `template` over `model`. */
export function printTemplate(template: readonly MarkupNode[], model: DisplayModel): string {
  return print(template, [model]);
}
