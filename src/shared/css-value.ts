import { unsafeCSS } from 'lit';

/**
 * One CSS value computed in TypeScript (a length from loading-sizes.ts), for a value position in
 * one of lit's css templates: `min-block-size: ${cssValue(HEIGHT)};`. Named apart from lit's
 * `unsafeCSS` so that the build's literal minifier (scripts/vite-minify-literals.ts), which leaves
 * alone any file that inserts arbitrary CSS, still minifies the templates that only insert values.
 */
export const cssValue = (value: string): ReturnType<typeof unsafeCSS> => unsafeCSS(value);
