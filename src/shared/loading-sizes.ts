/**
 * The heights of what the elements show while loading, in units that depend on neither the text nor
 * the page's font: text lines at a fixed line height, a fixed number of lines per field (longer
 * text wraps onto more lines rather than being cut, and its box grows). The elements' styles and the space held before they are defined
 * (src/reserved-space.ts) both read them, so nothing moves when the content arrives. No Lit here:
 * the script tag's entry reads this module too.
 */

/** Line height of the counted lines, as a multiple of the font size (not the font's own `normal`). */
export const FIXED_LINE_HEIGHT = 1.35;

const BUTTON_HEIGHT = '2.75rem';
const SPACING = 'var(--loyalty-spacing, 1rem)';

/** The lines each field of a campaign slide is given while loading (and at least once loaded). */
export const SLIDE_LINES = { title: 1, subtitle: 1, description: 4, price: 1 } as const;

/** A slide title's font size, relative to the slide's. */
export const SLIDE_TITLE_SIZE = 1.1;

export const SLIDE_FIELD_GAP = '0.35rem';

/** A slide's text block (padding included): its four fields at their most lines and, with `claim`, the claim button. */
export function slideBodyHeight(claim: boolean): string {
  const { title, subtitle, description, price } = SLIDE_LINES;
  const lines = Number((FIXED_LINE_HEIGHT * (SLIDE_TITLE_SIZE * title + subtitle + description + price)).toFixed(4));
  const claimRow = claim ? ` + ${BUTTON_HEIGHT} + ${SLIDE_FIELD_GAP}` : '';
  return `calc(${lines}em + 3 * ${SLIDE_FIELD_GAP}${claimRow} + 2 * ${SPACING})`;
}

/** A `<coupon-claim>` (not compact): a title line and a price line above the claim button, half the spacing apart. */
export const COUPON_CLAIM_HEIGHT = `calc(${2 * FIXED_LINE_HEIGHT}em + ${BUTTON_HEIGHT} + ${SPACING})`;
