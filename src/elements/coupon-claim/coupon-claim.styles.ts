import { css } from 'lit';

export const couponClaimStyles = css`
  :host {
    display: block;
  }
  .base {
    display: grid;
    gap: calc(var(--_space) / 2);
    justify-items: start;
  }
  p {
    margin: 0;
  }
  .title {
    font-weight: 600;
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
    border: 2px dashed var(--_primary);
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
