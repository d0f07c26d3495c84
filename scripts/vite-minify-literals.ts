import type { Plugin } from 'vite';
import { minifyHTMLLiterals } from 'minify-literals';

/**
 * The elements' `css` and `html` templates are written for people to read: indented, one
 * declaration a line, with comments. The minifier leaves template literals as they are, so this
 * build step minifies them (Lightning CSS for styles, html-minifier-next for templates) in the
 * project's own sources; lit's are already minified.
 *
 * Whitespace between inline content is kept as one space (`conservativeCollapse`), since text next
 * to a binding may need it, and no attribute is dropped for being empty: an empty `alt` is meaningful.
 */
export function minifyLiterals(): Plugin {
  return {
    name: 'loyalty-minify-literals',
    apply: 'build',
    async transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id) || id.includes('node_modules') || !/\b(css|html)`/.test(code)) return null;
      const result = await minifyHTMLLiterals(code, {
        fileName: id,
        html: {
          collapseWhitespace: true,
          conservativeCollapse: true,
          removeComments: true,
          removeEmptyAttributes: false,
          decodeEntities: false,
          minifyJS: false,
          minifyCSS: false,
        },
      });
      return result ? { code: result.code, map: result.map ?? null } : null;
    },
  };
}
