import { css } from 'lit';
import { primaryButton } from '../../shared/button.styles.ts';

/** Buttons, failure block and skeleton shared by the Marketing elements (after `themeStyles`). */
export const statusStyles = css`
  /* Text that sits on the page's own background takes the page's colour unless the merchant sets
     --loyalty-color-text; boxes with a surface (slides, cards, controls) set their text colour. */
  :host {
    color: var(--loyalty-color-text);
  }
  .button {
    ${primaryButton}
    justify-content: center;
    gap: 0.4em;
    padding-block: 0.5em;
    padding-inline: 1.1em;
  }
  /* Secondary controls and failures carry their own surface: the host page's background may not
     match the colour scheme (a light page on a dark-mode device). */
  .button.secondary {
    background: var(--_surface);
    color: var(--_primary);
  }
  .button:disabled,
  .button[aria-disabled='true'] {
    opacity: 0.6;
    cursor: default;
  }
  .error {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) / 2);
    padding: calc(var(--_space) * 0.75);
    border: 1px solid var(--_danger);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
  }
  .error p {
    margin: 0;
    flex: 1 1 12rem;
  }
  .skeleton {
    border-radius: var(--_radius);
    background: linear-gradient(90deg, var(--_border) 25%, color-mix(in srgb, var(--_border) 40%, var(--_surface)) 50%, var(--_border) 75%) 0 0 / 200% 100%;
    animation: loyalty-shimmer 1.4s linear infinite;
  }
  @keyframes loyalty-shimmer {
    to {
      background-position: -200% 0;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton {
      animation: none;
    }
  }
`;
