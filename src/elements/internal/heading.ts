/**
 * Headings an element renders sit in the merchant's outline: their level comes from the
 * `heading-level` attribute (1 to 6), so a page's headings go h1, h2, … without a skipped level.
 * The default, 2, fits the common case of an element placed under the page's `<h1>`.
 */
import { html, type TemplateResult } from 'lit';
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

/**
 * An `<h1>`…`<h6>` whose part and class are `name` (a level outside 1 to 6 gives the default). One plain
 * template per level: smaller than building the tag with lit's static templates.
 */
export function heading(level: number, name: string, content: unknown): TemplateResult {
  switch (level) {
    case 1:
      return html`<h1 part=${name} class=${name} dir="auto">${content}</h1>`;
    case 3:
      return html`<h3 part=${name} class=${name} dir="auto">${content}</h3>`;
    case 4:
      return html`<h4 part=${name} class=${name} dir="auto">${content}</h4>`;
    case 5:
      return html`<h5 part=${name} class=${name} dir="auto">${content}</h5>`;
    case 6:
      return html`<h6 part=${name} class=${name} dir="auto">${content}</h6>`;
    default:
      return html`<h2 part=${name} class=${name} dir="auto">${content}</h2>`;
  }
}
