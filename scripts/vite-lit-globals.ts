import type { Plugin } from 'vite';

/**
 * The script a merchant pastes promises to add nothing to `window` beyond the custom elements.
 * Lit's production build adds four globals of its own:
 * - `litHtmlVersions`, `litElementVersions`, `reactiveElementVersions`: diagnostics that let Lit's
 *   development build warn about duplicate copies; nothing reads them at run time, so they go.
 * - `litPropertyMetadata`: a WeakMap shared with the standard-decorators path of `@property`. Our
 *   elements use the legacy decorators, which never write it, so the class finalizer reads it only
 *   when someone else created it, and the standard path creates it on first use.
 */
export function dropLitGlobals(): Plugin {
  const versionPush =
    /\(\s*([A-Za-z_$][\w$]*)\.(litHtmlVersions|litElementVersions|reactiveElementVersions)\s*\?\?=\s*\[\s*\]\s*\)\.push\(\s*(["'])[^"']*\3\s*\)/g;
  const metadataInit = /[A-Za-z_$][\w$]*\.litPropertyMetadata\s*\?\?=\s*new WeakMap(\(\))?/g;
  const metadataRead = /(?<![\w$.])litPropertyMetadata(?=\.get\()/g;
  const metadataWrite = /globalThis\.litPropertyMetadata(?=\.(get|set)\()/g;
  return {
    name: 'loyalty-drop-lit-globals',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/](lit-html|lit-element|@lit[\\/]reactive-element)[\\/]/.test(id)) return null;
      const next = code
        .replace(versionPush, 'void 0')
        .replace(metadataInit, 'void 0')
        .replace(metadataRead, '(globalThis.litPropertyMetadata||new WeakMap)')
        .replace(metadataWrite, '(globalThis.litPropertyMetadata??=new WeakMap)');
      return next === code ? null : { code: next, map: null };
    },
  };
}
