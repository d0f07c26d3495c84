import { css } from 'lit';

/**
 * The design tokens every element reads. Each `--loyalty-*` custom property can be set by the host
 * page on the element or any ancestor; the fallbacks give a neutral light theme that turns dark with
 * the shopper's `prefers-color-scheme`. Fonts are inherited from the page.
 */
export const themeStyles = css`
  :host {
    --_primary: var(--loyalty-color-primary, #1f5fbf);
    --_on-primary: var(--loyalty-color-on-primary, #ffffff);
    --_surface: var(--loyalty-color-surface, #ffffff);
    --_text: var(--loyalty-color-text, #1b1f24);
    --_muted: var(--loyalty-color-muted, #57606a);
    --_border: var(--loyalty-color-border, #d0d7de);
    --_danger: var(--loyalty-color-danger, #b42318);
    --_success: var(--loyalty-color-success, #1a7f37);
    --_radius: var(--loyalty-radius, 8px);
    --_space: var(--loyalty-spacing, 1rem);
    /* The focus ring has two tones, an outline in --_focus-color and a halo in --_focus-halo around
       it, at least 9:1 apart: whatever colour is next to the ring (the control, the page), one of
       the two stands out from it at least 3:1 (WCAG 1.4.11). */
    --_focus-color: var(--loyalty-focus-color, #12366e);
    --_focus-halo: var(--loyalty-focus-halo, #ffffff);
    --_focus: var(--loyalty-focus-ring, 0 0 0 4px var(--_focus-halo));
    /* The containing block of the element's visually hidden text, which then stays inside the
       element's box: inside a carousel slide it is clipped with the slide, instead of landing
       beyond the page's edge and widening it. */
    position: relative;
    font: inherit;
    color: var(--_text);
    box-sizing: border-box;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_primary: var(--loyalty-color-primary, #6ea8fe);
      --_on-primary: var(--loyalty-color-on-primary, #0b1320);
      --_surface: var(--loyalty-color-surface, #1c2128);
      --_text: var(--loyalty-color-text, #e6edf3);
      --_muted: var(--loyalty-color-muted, #9da7b3);
      --_border: var(--loyalty-color-border, #3d444d);
      --_danger: var(--loyalty-color-danger, #ff8a80);
      --_success: var(--loyalty-color-success, #56d364);
      --_focus-color: var(--loyalty-focus-color, #ffffff);
      --_focus-halo: var(--loyalty-focus-halo, #0b1320);
    }
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button {
    font: inherit;
  }
  /* The outline hugs the control and the halo (a box-shadow) surrounds the outline. In forced-colors
     mode (Windows high contrast) box-shadows are dropped and the outline takes the system colour. */
  :focus-visible {
    outline: 2px solid var(--_focus-color);
    outline-offset: 0;
    box-shadow: var(--_focus);
  }
  .visually-hidden {
    position: absolute;
    inset-block-start: 0;
    inset-inline-start: 0;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;
