/**
 * The sandbox writes its pages and images with hono's `html` tagged template: every interpolated
 * value is escaped (records and request parameters may hold hostile strings), nested templates and
 * arrays of them are kept as they are, and `null`, `undefined` and `false` write nothing.
 */
import type { html } from 'hono/html';

/** What hono's `html` returns: markup, or a promise of it when a promise was interpolated. */
export type HtmlFragment = ReturnType<typeof html>;

/**
 * The markup as a string. The sandbox never interpolates a promise, so hono has always rendered it
 * already; a promise here would be a bug, and fails loudly rather than printing `[object Promise]`.
 *
 * @example
 * const page = htmlText(html`<h1>${heading}</h1>`);
 */
export function htmlText(fragment: HtmlFragment): string {
  if (fragment instanceof Promise) throw new TypeError('Sandbox markup is rendered synchronously.');
  return fragment.toString();
}
