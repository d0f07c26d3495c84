import { css } from 'lit';

/**
 * The panel's frame, the dialog in the launcher's shadow root: beside the button on a wide screen, a
 * sheet covering the screen on a phone. Adopted by the launcher when the panel loads.
 */
export const panelFrameStyles = css`
  /* The other elements' tokens, with the same defaults (src/shared/theme.styles.ts). */
  :host {
    --_surface: var(--loyalty-color-surface, #fff);
    --_text: var(--loyalty-color-text, #1b1f24);
    --_border: var(--loyalty-color-border, #d0d7de);
    --_radius: var(--loyalty-radius, 8px);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_surface: var(--loyalty-color-surface, #1c2128);
      --_text: var(--loyalty-color-text, #e6edf3);
      --_border: var(--loyalty-color-border, #3d444d);
    }
  }
  [part~='panel'] {
    position: fixed;
    inset: auto;
    inset-block-end: calc(var(--_offset-block) + 3.5rem);
    inset-inline-end: var(--_offset-inline);
    margin: 0;
    padding: 0;
    inline-size: min(26rem, calc(100vw - 2 * var(--_offset-inline)));
    /* A height of its own, not its content's: anchored at the bottom, a panel that grew as its content
       arrived would move all of it. The content scrolls inside. */
    block-size: min(44rem, calc(100vh - var(--_offset-block) - 5rem));
    overflow: auto;
    overscroll-behavior: contain;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
    box-shadow: 0 8px 32px rgb(0 0 0 / 0.3);
  }
  :host([corner^='top']) [part~='panel'] { inset-block: calc(var(--_offset-block) + 3.5rem) auto; }
  :host([corner$='start']) [part~='panel'] { inset-inline: var(--_offset-inline) auto; }
  :host([corner$='left']) [part~='panel'] { left: var(--_offset-inline); right: auto; }
  :host([corner$='right']) [part~='panel'] { right: var(--_offset-inline); left: auto; }
  /* On a phone the panel is a modal sheet covering the screen. */
  [part~='panel'].sheet {
    inset: 0;
    inline-size: 100%;
    block-size: 100%;
    max-inline-size: none;
    max-block-size: none;
    border: 0;
    border-radius: 0;
  }
  [part~='panel']::backdrop { background: rgb(0 0 0 / 0.4); }
  @media (prefers-reduced-motion: no-preference) {
    [part~='panel'][open] { animation: appear 0.15s ease-out; }
  }
  @keyframes appear {
    from {
      opacity: 0;
    }
  }
  @media (forced-colors: active) {
    [part~='panel'] {
      border: 1px solid CanvasText;
    }
  }
`;

/** The panel's content: a title row that stays in view, then one section per part of the program. */
export const panelStyles = css`
  :host {
    display: block;
    padding-block-end: var(--_space);
  }
  .header {
    position: sticky;
    inset-block-start: 0;
    z-index: 1;
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
    padding-block: calc(var(--_space) / 2);
    padding-inline: var(--_space);
    background: var(--_surface);
    border-block-end: 1px solid var(--_border);
  }
  .title {
    margin: 0;
    font-size: 1.25em;
    overflow-wrap: anywhere;
  }
  .close {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    flex: none;
    min-inline-size: 2.75rem;
    min-block-size: 2.75rem;
    padding: 0;
    border: 1px solid transparent;
    border-radius: var(--_radius);
    background: transparent;
    color: var(--_text);
    cursor: pointer;
  }
  .close svg {
    inline-size: 1.5em;
    block-size: 1.5em;
  }
  .section {
    display: grid;
    gap: calc(var(--_space) / 2);
    padding-block-start: var(--_space);
    padding-inline: var(--_space);
    min-inline-size: 0;
  }
  .section-title {
    margin: 0;
    font-size: 1.1em;
  }
  .stack {
    display: grid;
  }
  .stack > * {
    grid-area: 1 / 1;
  }
  .stack > [hidden] {
    display: block;
    visibility: hidden;
  }
  .intro,
  .note {
    margin: 0;
    color: var(--_muted);
  }
  .coupons {
    display: grid;
    gap: var(--_space);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .coupons > li {
    padding-block-end: var(--_space);
    border-block-end: 1px solid var(--_border);
  }
  @media (forced-colors: active) {
    .close {
      border-color: ButtonText;
    }
  }
`;
