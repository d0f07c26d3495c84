/**
 * Headings an element renders sit in the merchant's outline: their level comes from the
 * `heading-level` attribute (1 to 6), so a page's headings go h1, h2, … without a skipped level.
 * The default, 2, fits the common case of an element placed under the page's `<h1>`.
 */
import type { TemplateResult } from 'lit';
import { html, unsafeStatic } from 'lit/static-html.js';
import { warnOnce } from '../../shared/warn.ts';

/** The elements' `heading-level` default (their properties say 2 as a literal, for the manifest). */
export const DEFAULT_HEADING_LEVEL = 2;

/** Reads the attribute as the property holds it: a whole number from 1 to 6, else the default (said once). */
export function headingLevel(host: HTMLElement, value: number): number {
  if (Number.isInteger(value) && value >= 1 && value <= 6) return value;
  warnOnce(
    host,
    `heading-level="${host.getAttribute('heading-level') ?? String(value)}" is not a whole number from 1 to 6; using ${DEFAULT_HEADING_LEVEL}.`,
  );
  return DEFAULT_HEADING_LEVEL;
}

/** An `<h1>`…`<h6>` (the level is checked, so only those six tags are ever written) with its part and class. */
export function heading(level: number, part: string, className: string, content: unknown): TemplateResult {
  const tag = unsafeStatic(`h${Math.min(6, Math.max(1, Math.trunc(level) || DEFAULT_HEADING_LEVEL))}`);
  // eslint-disable-next-line lit/binding-positions, lit/no-invalid-html -- a static tag (lit/static-html.js), one of h1…h6
  return html`<${tag} part=${part} class=${className} dir="auto">${content}</${tag}>`;
}
