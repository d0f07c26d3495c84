import type { Plugin } from 'vite';

/**
 * Lit records its versions on `window` (`litHtmlVersions`, `litElementVersions`,
 * `reactiveElementVersions`) only so that its development build can warn about duplicate copies.
 * The script a merchant pastes promises to add nothing to `window` beyond the custom elements, so
 * the production bundle drops those three diagnostic pushes. Nothing reads them at run time.
 */
export function dropLitVersionGlobals(): Plugin {
  const push = /\(\s*([A-Za-z_$][\w$]*)\.(litHtmlVersions|litElementVersions|reactiveElementVersions)\s*\?\?=\s*\[\s*\]\s*\)\.push\(\s*(["'])[^"']*\3\s*\)/g;
  return {
    name: 'loyalty-drop-lit-version-globals',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/](lit-html|lit-element|@lit[\\/]reactive-element)[\\/]/.test(id)) return null;
      const next = code.replace(push, 'void 0');
      return next === code ? null : { code: next, map: null };
    },
  };
}
