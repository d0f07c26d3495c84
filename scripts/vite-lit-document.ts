import type { Plugin } from 'vite';

/**
 * Lit renders with `document.createComment`, `createElement`, `createTextNode`, `createTreeWalker` and
 * `importNode`, read from `document` at each call. A `<form name="importNode">` in a page's body hides
 * any of them, and no widget of the page renders (see src/shared/page.ts, which the widgets' own reads
 * go through). In the build, lit-html calls Document's own methods instead, taken when it loads. The
 * build fails when lit-html's code no longer has the shape this expects, rather than ship it unguarded.
 */
export function litDocumentMethods(): Plugin {
  const PROTO = '__loyaltyDocument';
  return {
    name: 'loyalty-lit-document-methods',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]lit-html[\\/]lit-html\.js$/.test(id)) return null;
      const alias = /([A-Za-z_$][\w$]*)=document\b/.exec(code)?.[1];
      if (!alias) throw new Error('lit-html: the alias of document was not found; update scripts/vite-lit-document.ts');
      const name = alias.replace(/\$/g, '\\$');
      const next = code
        .replace(new RegExp(`(?<![\\w$.])${name}\\.(create\\w+)\\(`, 'g'), `${PROTO}.$1.call(${alias},`)
        .replace(new RegExp(`\\(([^()]*\\?\\?${name})\\)\\.importNode\\(`, 'g'), `${PROTO}.importNode.call($1,`);
      const left = new RegExp(`(?<![\\w$.])${name}\\.\\w|\\.importNode\\(`).exec(next);
      if (left) throw new Error(`lit-html still reads document's "${left[0]}"; update scripts/vite-lit-document.ts`);
      return { code: `const ${PROTO}=globalThis.Document?.prototype;${next}`, map: null };
    },
  };
}
