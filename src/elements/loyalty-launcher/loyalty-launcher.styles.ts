/**
 * The launcher's button (the panel's colours come with the panel: launcher-panel.styles.ts). Plain CSS text, not Lit's css: the button loads without Lit. The tokens are the other
 * elements' (--loyalty-*, src/shared/theme.styles.ts), with the same defaults. Tagged css only so
 * that the build minifies it as it does Lit's styles (scripts/vite-minify-literals.ts).
 */
const css = String.raw;

export const launcherCss = css`
:host {
  --_primary: var(--loyalty-color-primary, #1f5fbf);
  --_on-primary: var(--loyalty-color-on-primary, #fff);
  --_space: var(--loyalty-spacing, 1rem);
  --_focus-color: var(--loyalty-focus-color, #12366e);
  --_focus-halo: var(--loyalty-focus-halo, #fff);
  --_focus: var(--loyalty-focus-ring, 0 0 0 4px var(--_focus-halo));
  --_offset-block: var(--_offset, var(--_space));
  --_offset-inline: var(--_offset-x, var(--_offset-block));
  /* Floating: the page's flow never makes room for it, so it never moves the page. */
  position: fixed;
  inset-block-end: var(--_offset-block);
  inset-inline-end: var(--_offset-inline);
  z-index: var(--loyalty-launcher-z-index, 2147483000);
  display: block;
  font: inherit;
  box-sizing: border-box;
}
@media (prefers-color-scheme: dark) {
  :host {
    --_primary: var(--loyalty-color-primary, #6ea8fe);
    --_on-primary: var(--loyalty-color-on-primary, #0b1320);
    --_focus-color: var(--loyalty-focus-color, #fff);
    --_focus-halo: var(--loyalty-focus-halo, #0b1320);
  }
}
:host([hidden]) { display: none !important; }
:host([corner^='top']) { inset-block: var(--_offset-block) auto; }
:host([corner$='start']) { inset-inline: var(--_offset-inline) auto; }
:host([corner$='left']) { left: var(--_offset-inline); right: auto; }
:host([corner$='right']) { right: var(--_offset-inline); left: auto; }
*, *::before, *::after { box-sizing: inherit; }
[part~='button'] {
  display: inline-flex;
  align-items: center;
  gap: calc(var(--_space) / 2);
  min-block-size: 3rem;
  min-inline-size: 3rem;
  max-inline-size: calc(100vw - 2 * var(--_offset-inline));
  padding-block: calc(var(--_space) / 2);
  padding-inline: var(--_space);
  border: 1px solid var(--_primary);
  border-radius: var(--loyalty-launcher-radius, 1.5rem);
  background: var(--_primary);
  color: var(--_on-primary);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  box-shadow: 0 2px 8px rgb(0 0 0 / 0.25);
}
[part~='button']:hover { filter: brightness(1.08); }
:focus-visible {
  outline: 2px solid var(--_focus-color);
  outline-offset: 0;
  box-shadow: var(--_focus);
}
[part~='icon'] { display: inline-flex; inline-size: 1.5em; block-size: 1.5em; }
[part~='icon']:empty { display: none; }
[part~='icon'] svg { inline-size: 100%; block-size: 100%; }
:host([icon-only]) [part~='label'] {
  position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
@media (forced-colors: active) {
  [part~='button'] { border-color: ButtonText; }
}
`;
