import type { Plugin } from 'vite';
import { readFile } from 'node:fs/promises';

const COPY = '?script-tag-copy';

/**
 * The script tag carries its own copy of every module it imports statically, so that
 * dist/loyalty-widgets.js imports no other file: what it starts (each element's first page of data,
 * the element's files) starts as soon as it runs, not one round trip later, after a shared chunk.
 * The elements' files keep importing the shared chunk as before; it arrives with them.
 *
 * A module the script tag shares with the elements therefore exists twice on a page, so what one
 * copy keeps and the other reads (the early answers, the merchant's strings, the shipped callback
 * page) lives in src/shared/page-registry.ts, on the page, not in a module. The dynamic imports of
 * the copies (an element, the mounts' code, a language's strings) resolve to the shared files.
 */
export function scriptTagCopies(entry: string): Plugin {
  const isCopy = (id: string): boolean => id.endsWith(COPY);
  const original = (id: string): string => (isCopy(id) ? id.slice(0, -COPY.length) : id);
  return {
    name: 'loyalty-script-tag-copies',
    apply: 'build',
    resolveId: {
      order: 'pre',
      async handler(source, importer, options) {
        if (!importer || options.kind !== 'import-statement') return null;
        if (original(importer) !== entry && !isCopy(importer)) return null;
        const resolved = await this.resolve(source, original(importer), { ...options, skipSelf: true });
        if (!resolved || resolved.external || resolved.id.includes('node_modules')) return resolved;
        return resolved.id + COPY;
      },
    },
    load(id) {
      return isCopy(id) ? readFile(original(id), 'utf8') : null;
    },
  };
}
