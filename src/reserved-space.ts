/**
 * The space each element takes before its code arrives: the size of what it first shows (its
 * loading skeleton), so the page below does not jump when it appears. Shipped as
 * dist/loyalty-widgets.css for pages to link before any paint; the script tag applies the same
 * rules when it runs before the first paint. `:where()` keeps them at zero specificity, so any rule
 * of the page about these elements wins, and they stop applying once an element is defined. The
 * skeletons live in the elements' styles; an end-to-end test checks that the two agree.
 */
import { COUPON_CLAIM_HEIGHT, slideBodyHeight } from './shared/loading-sizes.ts';
import { ELEMENT_TAGS, type ElementTag } from './shared/tags.ts';

/** Each element's rules: every tag has an entry, so a new element cannot be forgotten here. */
const rulesByTag: Record<ElementTag, string[]> = {
  'loyalty-signin-button': [
    // Aligned by its middle, as the button is: an empty box's baseline is its bottom edge, a button's
    // is its text's, and the line around it would change height when the button arrives.
    ':where(loyalty-signin-button:not(:defined, [hidden])) { display: inline-block; vertical-align: middle; min-block-size: 2.75rem; min-inline-size: min(100%, 16rem); }',
  ],
  'campaign-carousel': [
    // The controls, then one slide (a 16:9 image over the text block) in the scroller's 4px padding.
    `:where(campaign-carousel:not(:defined, [hidden])) { display: block; padding: calc(2.75rem + var(--loyalty-spacing, 1rem) / 2 + 5px) 5px calc(${slideBodyHeight(false)} + 5px); }`,
    `:where(campaign-carousel[claim]:not(:defined, [hidden])) { padding-block-end: calc(${slideBodyHeight(true)} + 5px); }`,
    ':where(campaign-carousel:not(:defined, [hidden]))::before { content: ""; display: block; inline-size: var(--loyalty-carousel-slide-width, min(85%, 20rem)); aspect-ratio: 16 / 9; }',
  ],
  'coupon-claim': [
    // The title and price lines, then the claim button.
    `:where(coupon-claim:not(:defined, [hidden])) { display: block; min-block-size: ${COUPON_CLAIM_HEIGHT}; }`,
    ':where(coupon-claim[compact]:not(:defined, [hidden])) { min-block-size: 2.75rem; }',
  ],
  'business-directory': [
    // One row of cards.
    ':where(business-directory:not(:defined, [hidden])) { display: block; min-block-size: 18rem; }',
  ],
};

export const reservedSpaceCss = [...ELEMENT_TAGS.flatMap((tag) => rulesByTag[tag]), ''].join('\n');
