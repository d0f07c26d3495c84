/**
 * The space each element takes before its code arrives: the size of what it first shows (its
 * loading skeleton), so the page below does not jump when it appears. Shipped as
 * dist/loyalty-widgets.css for pages to link before any paint; the script tag applies the same
 * rules when it runs before the first paint. A CMS mount (`<div data-loyalty-widget="…">`) holds the
 * same space until its element is put inside it. Whatever is inside meanwhile (a mount's fallback
 * text, an editor's `&nbsp;`) is still shown but takes no space: it sits in rows of no height, so the
 * box is the skeleton's size, neither more nor less. `:where()` keeps the rules at zero specificity,
 * so any rule of the page about these elements or its own `div`s wins, and they stop applying once an
 * element is defined or a mount turned. The skeletons live in the elements' styles; an end-to-end
 * test checks that the two agree.
 */
import { COUPON_CLAIM_HEIGHT, slideBodyHeight } from './shared/loading-sizes.ts';
import {
  ELEMENT_TAGS,
  FIRST_PAGE_ATTRIBUTE,
  FIRST_PAGE_IN_FLOW,
  FIRST_PAGE_OVER_HELD_SPACE,
  MOUNT_ATTRIBUTE,
  type ElementTag,
} from './shared/tags.ts';

/** The size of an element's first view. */
interface Space {
  /** Declarations for its box. */
  size: string;
  /** With an attribute that changes the first view (a mount's `data-` form of it), what changes. */
  shapes?: Record<string, string>;
  /** A box drawn first inside it. */
  before?: string;
}

/** Each element's space: every tag has an entry, so a new element cannot be forgotten here. */
const spaceByTag: Record<ElementTag, Space> = {
  // The button (in a mount, on a line of its own).
  'loyalty-signin-button': { size: 'min-block-size: 2.75rem; min-inline-size: min(100%, 16rem);' },
  // The controls, then one slide in the scroller's 4px padding: its 1px border around a 16:9 image
  // as wide as the slide within its border, over the text block.
  'campaign-carousel': {
    size: `grid-template-rows: auto; padding: calc(2.75rem + var(--loyalty-spacing, 1rem) / 2 + 5px) 4px calc(${slideBodyHeight(false)} + 5px);`,
    shapes: { claim: `padding-block-end: calc(${slideBodyHeight(true)} + 5px);` },
    before:
      'content: ""; inline-size: calc(var(--loyalty-carousel-slide-width, min(85%, 20rem)) - 2px); aspect-ratio: 16 / 9;',
  },
  // The title and price lines, then the claim button.
  'coupon-claim': {
    size: `min-block-size: ${COUPON_CLAIM_HEIGHT};`,
    shapes: { compact: 'min-block-size: 2.75rem;' },
  },
  // One row of cards. Cards are as tall as their text makes them, so a printed page is laid out as they are.
  'business-directory': { size: 'min-block-size: 18rem;' },
  // Floating once defined: before, it holds no space at all.
  'loyalty-launcher': { size: 'block-size: 0; overflow: hidden;' },
};

const printedInFlow = (tag: ElementTag): boolean => (FIRST_PAGE_IN_FLOW as readonly string[]).includes(tag);

function rules(tag: ElementTag, mount: boolean): string[] {
  // What is not shown yet: an element not defined, or a mount of it not yet turned. A hidden one holds nothing.
  const { size, shapes = {}, before } = spaceByTag[tag];
  const taken = printedInFlow(tag) ? `> ${tag}, > [${FIRST_PAGE_ATTRIBUTE}]` : `> ${tag}`;
  const pending = (attribute?: string): string =>
    mount
      ? `:where([${MOUNT_ATTRIBUTE}="${tag}" i]${attribute ? `[data-${attribute}]` : ''}:not([hidden], :has(${taken})))`
      : `:where(${tag}${attribute ? `[${attribute}]` : ''}:not(:defined, [hidden]))`;
  // The sign-in button is inline and aligned by its middle, as the button is: an empty box's baseline
  // is its bottom edge, a button's is its text's, and the line around it would change height when the
  // button arrives. A mount is the block it is.
  const display = tag === 'loyalty-signin-button' && !mount ? 'inline-grid; vertical-align: middle' : 'grid';
  return [
    // Border-box: where the page caps its blocks' width (a theme's content width), the held space is
    // as wide as the element that takes it, its padding included.
    `${pending()} { display: ${display}; box-sizing: border-box; grid-auto-rows: 0; ${size} }`,
    ...Object.entries(shapes).map(([attribute, change]) => `${pending(attribute)} { ${change} }`),
    ...(before ? [`${pending()}::before { ${before} }`] : []),
  ];
}

/** What the script tag applies when it runs before the first paint. */
export const reservedSpaceCss = [
  ...ELEMENT_TAGS.flatMap((tag) => rules(tag, false)),
  ...ELEMENT_TAGS.flatMap((tag) => rules(tag, true)),
  '',
].join('\n');

/** The spacing the elements read (their `--_space`). */
const SPACING = 'var(--loyalty-spacing, 1rem)';

/**
 * A printed directory, laid out by the rules of the element's cards
 * (src/elements/business-directory/business-directory.styles.ts): the same grid, gaps, paddings,
 * borders and font sizes, so its cards are as tall as the element's first cards in any font, and the
 * room of the footer the element draws below them, with its button when there is a next page. A test
 * in each engine holds the two to the same size.
 */
function printedDirectoryRules(): string[] {
  const page = `[${MOUNT_ATTRIBUTE}="business-directory" i] > [${FIRST_PAGE_ATTRIBUTE}]`;
  const card = `${page} > ul > li`;
  return [
    `:where(${page}) { padding-block-end: ${SPACING}; }`,
    `:where(${page} > ul) { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--loyalty-directory-card-min-width, 16rem)), 1fr)); }`,
    `:where(${card}) { display: grid; grid-template-columns: auto minmax(0, 1fr); align-content: start; gap: 0.25rem calc(${SPACING} * 0.75); padding: ${SPACING}; border: 1px solid var(--loyalty-color-border, #d0d7de); border-radius: var(--loyalty-radius, 8px); overflow-wrap: anywhere; }`,
    `:where(${card} > :not(img, [data-field="name"], [data-field="category"])) { grid-column: 1 / -1; }`,
    `:where(${card} > img) { grid-row: span 2; inline-size: 3rem; block-size: 3rem; border-radius: calc(var(--loyalty-radius, 8px) / 2); object-fit: cover; }`,
    `:where(${card} > *) { margin: 0; }`,
    `:where(${card} > [data-field="name"]) { font-size: 1.1em; }`,
    `:where(${card} > [data-field="category"]) { color: var(--loyalty-color-muted, #57606a); font-size: 0.9em; }`,
    `:where(${card} > address) { font-style: normal; }`,
    // A phone number or a website: at least 24px each way, as the element's links.
    `:where(${card} a) { display: inline-flex; align-items: center; min-block-size: 24px; min-inline-size: 24px; }`,
    // The program's own properties: a value that wraps stays below its key.
    `:where(${card} > dl) { display: grid; row-gap: 0.5em; }`,
    `:where(${card} > dl > div) { display: flex; flex-wrap: wrap; column-gap: 0.5em; }`,
    `:where(${card} dt) { color: var(--loyalty-color-muted, #57606a); }`,
    `:where(${card} dd) { margin: 0; }`,
    // A next page: the room of the element's button for it (its least height; its text is shorter).
    `:where(${page} > [data-field="more"]) { block-size: 2.75rem; }`,
  ];
}

/**
 * dist/loyalty-widgets.css: the same, and the rules for first pages a server printed, or the browser
 * printed inside a carousel or a coupon from the answer the head preloaded (src/first-page.ts, only
 * where these rules lay it over the held space): only a page that links the stylesheet has them, so
 * the script tag carries none of them. While
 * script runs, a printed first page lies over the space held, within its padding, so nothing below
 * moves while the element takes over, or, for an element whose content sets its height (`FIRST_PAGE_IN_FLOW`),
 * takes its place in the flow laid out as the element's; without script, nothing takes the mount over,
 * and it is laid out in the page's flow.
 */
export function stylesheetCss(): string {
  const printed = `:where([${MOUNT_ATTRIBUTE}]:has(> [${FIRST_PAGE_ATTRIBUTE}]))`;
  const inFlow = FIRST_PAGE_IN_FLOW.map((tag) => `[${MOUNT_ATTRIBUTE}="${tag}" i]`);
  const over = `:is(${FIRST_PAGE_OVER_HELD_SPACE.join(', ')}):not(:defined)`;
  const firstPageRules = [
    `${printed}, :where(${over}) { position: relative; }`,
    `:where([${MOUNT_ATTRIBUTE}]:not(${inFlow.join(', ')}) > [${FIRST_PAGE_ATTRIBUTE}], ${over} > [${FIRST_PAGE_ATTRIBUTE}]) { position: absolute; inset: 0; padding: inherit; overflow: hidden; }`,
    `:where([${FIRST_PAGE_ATTRIBUTE}] ul) { display: flex; gap: var(--loyalty-spacing, 1rem); margin: 0; padding: 0; list-style: none; }`,
    `:where([${FIRST_PAGE_ATTRIBUTE}] li) { flex: 0 0 var(--loyalty-carousel-slide-width, min(85%, 20rem)); }`,
    `:where([${FIRST_PAGE_ATTRIBUTE}] img) { display: block; max-inline-size: 100%; block-size: auto; }`,
    ...printedDirectoryRules(),
    `@media (scripting: none) { ${printed} { display: block; position: static; padding: 0; min-block-size: 0; } ${printed}::before { content: none; } :where([${MOUNT_ATTRIBUTE}] > [${FIRST_PAGE_ATTRIBUTE}]) { position: static; padding: 0; } :where([${FIRST_PAGE_ATTRIBUTE}] ul) { flex-wrap: wrap; } :where([${FIRST_PAGE_ATTRIBUTE}] > [data-field="more"]) { display: none; } }`,
  ];
  return [reservedSpaceCss, ...firstPageRules, ''].join('\n');
}
