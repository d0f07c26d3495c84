import { css } from 'lit';
import { cssValue } from '../../shared/css-value.ts';
import { COUPON_CLAIM_HEIGHT, FIXED_LINE_HEIGHT } from '../../shared/loading-sizes.ts';

export const couponClaimStyles = css`
  :host {
    display: block;
  }
  .base {
    display: grid;
    align-content: start;
    gap: calc(var(--_space) / 2);
    justify-items: start;
  }
  /* Never shorter than the loading shape, also for a campaign without a price or a coupon. */
  :host(:not([compact])) .base {
    min-block-size: ${cssValue(COUPON_CLAIM_HEIGHT)};
  }
  p {
    margin: 0;
  }
  .title {
    font-weight: 600;
  }
  /* A fixed line height, so the space held while loading is theirs in any font; longer text wraps
     rather than being cut (WCAG 1.4.10, 1.4.12). */
  .title,
  .price,
  .skeleton.text {
    line-height: ${FIXED_LINE_HEIGHT};
  }
  .title,
  .price {
    max-inline-size: 100%;
    overflow-wrap: anywhere;
  }
  .price,
  .code-label {
    color: var(--loyalty-color-muted, color-mix(in srgb, currentColor 75%, transparent));
  }
  .coupon {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) / 2);
  }
  .code-label {
    flex-basis: 100%;
    font-size: 0.9em;
  }
  .code {
    padding-block: 0.25em;
    padding-inline: 0.6em;
    border: 2px dashed var(--_success);
    border-radius: var(--_radius);
    font-family: var(--loyalty-code-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
    font-size: var(--loyalty-code-size, 1.5em);
    font-weight: 700;
    letter-spacing: 0.08em;
    user-select: all;
    direction: ltr;
    unicode-bidi: isolate;
  }
  /* Shaped like what arrives: title and price lines (unless compact), then the button. The same
     space is reserved before the element is defined (src/reserved-space.ts). */
  .skeleton.text {
    inline-size: min(100%, 12rem);
    block-size: 1lh;
    padding-block: 0.2lh;
    background-clip: content-box;
  }
  .skeleton.text + .skeleton.text {
    inline-size: min(60%, 6rem);
  }
  .skeleton.line {
    inline-size: min(100%, 14rem);
    block-size: 2.75rem;
  }
`;
