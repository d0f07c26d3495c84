import { css } from 'lit';
import { cssValue } from '../../shared/css-value.ts';
import { FIXED_LINE_HEIGHT, SLIDE_FIELD_GAP, SLIDE_TITLE_SIZE, slideBodyHeight } from '../../shared/loading-sizes.ts';

export const campaignCarouselStyles = css`
  :host {
    display: block;
    --_slide-width: var(--loyalty-carousel-slide-width, min(85%, 20rem));
  }
  .base {
    display: grid;
    gap: calc(var(--_space) / 2);
  }
  .controls {
    display: flex;
    min-block-size: 2.75rem;
    justify-content: flex-end;
    gap: 0.5rem;
  }
  .icon-button {
    display: inline-grid;
    place-items: center;
    inline-size: 2.75rem;
    block-size: 2.75rem;
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: 50%;
    background: var(--_surface);
    color: var(--_text);
    font-size: 1.25rem;
    line-height: 1;
    cursor: pointer;
  }
  .icon-button:disabled {
    opacity: 0.4;
    cursor: default;
  }
  /* The glyph is laid out left to right (no bidi mirroring) and flipped explicitly in RTL. */
  .arrow {
    display: inline-block;
    direction: ltr;
    unicode-bidi: isolate;
  }
  :host(:dir(rtl)) .arrow {
    transform: scaleX(-1);
  }
  .slides {
    display: grid;
    grid-auto-flow: column;
    grid-auto-columns: var(--_slide-width);
    gap: var(--loyalty-carousel-gap, var(--_space));
    padding: 4px;
    overflow-x: auto;
    overscroll-behavior-x: contain;
    scroll-snap-type: x mandatory;
    scroll-behavior: smooth;
    /* No scrollbar under the slides in any engine (WebKit and Firefox drew one): the buttons, the
       arrow keys and swipes move the track. The pseudo-element covers Safari before 18.2. */
    scrollbar-width: none;
  }
  .slides::-webkit-scrollbar {
    display: none;
  }
  .slide {
    display: flex;
    flex-direction: column;
    overflow: hidden;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
    scroll-snap-align: start;
    cursor: pointer;
  }
  .media {
    aspect-ratio: 16 / 9;
    background: color-mix(in srgb, var(--_border) 50%, var(--_surface));
  }
  .media img {
    display: block;
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
  }
  /* Fixed line heights and a block at least as tall as the loading shape's fields
     (shared/loading-sizes.ts), so nothing moves when the campaigns arrive. Longer text wraps and the
     slide grows, rather than being cut: at 320px and under the shopper's text spacing every word
     stays readable (WCAG 1.4.10, 1.4.12). */
  .body {
    display: grid;
    align-content: start;
    gap: ${cssValue(SLIDE_FIELD_GAP)};
    min-block-size: ${cssValue(slideBodyHeight(false))};
    padding: var(--_space);
    line-height: ${FIXED_LINE_HEIGHT};
  }
  /* With claim, every slide holds the claim row, whether or not its campaign has a coupon. */
  .body.with-claim {
    min-block-size: ${cssValue(slideBodyHeight(true))};
  }
  .title,
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .title {
    font-size: ${SLIDE_TITLE_SIZE}em;
  }
  /* The title's text is a real button (what a click anywhere on the slide also does), drawn as the
     title: the page's ::part(title) rules reach it through inheritance. */
  .title-button {
    display: block;
    inline-size: 100%;
    margin: 0;
    padding: 0;
    border: 0;
    border-radius: calc(var(--_radius) / 2);
    background: none;
    color: inherit;
    font: inherit;
    letter-spacing: inherit;
    word-spacing: inherit;
    text-align: start;
    text-transform: inherit;
    cursor: pointer;
  }
  .subtitle {
    color: var(--_muted);
  }
  .price {
    color: var(--_primary);
    font-weight: 700;
  }
  .placeholder {
    cursor: default;
  }
  .placeholder .line {
    block-size: 1.1em;
  }
  .placeholder .line + .line {
    inline-size: 60%;
  }
  .slides > .error {
    align-self: center;
  }
  @media (prefers-reduced-motion: reduce) {
    .slides {
      scroll-behavior: auto;
    }
  }

  .not-found-yet {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
  }
`;
