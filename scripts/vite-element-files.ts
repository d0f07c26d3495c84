import type { Plugin } from 'vite';

/** The text the script-tag entry (src/index.ts) holds where the build writes the element files. */
export const ELEMENT_FILES_MARKER = '__LOYALTY_ELEMENT_FILES__';

/**
 * Writes into the script tag, for each element, the chunks its module imports (lit, the Marketing
 * plumbing) beyond the script tag itself, which holds the plumbing every element shares and imports
 * no other file (vite.config.ts). The script tag fetches them together with the element's file; left
 * to the browser, it would find them only once that file had arrived, one network round trip later.
 * Done in renderChunk, while file names are still placeholders that the bundler fills in afterwards,
 * and before minification.
 */
export function elementFiles(entryFileName: string): Plugin {
  return {
    name: 'loyalty-element-files',
    apply: 'build',
    renderChunk(code, chunk, _options, meta) {
      if (chunk.fileName !== entryFileName) return null;
      const closure = (fileName: string, into = new Set<string>()): Set<string> => {
        if (into.has(fileName)) return into;
        into.add(fileName);
        for (const imported of meta.chunks[fileName]?.imports ?? []) closure(imported, into);
        return into;
      };
      const alreadyLoaded = closure(chunk.fileName);
      const files: Record<string, string[]> = {};
      for (const dynamic of chunk.dynamicImports) {
        const tag = /[\\/]src[\\/]elements[\\/]([\w-]+)[\\/]index\.ts$/.exec(
          meta.chunks[dynamic]?.facadeModuleId ?? '',
        )?.[1];
        if (!tag) continue;
        files[tag] = [...closure(dynamic)]
          .filter((file) => file !== dynamic && !alreadyLoaded.has(file))
          .map((file) => `./${file}`);
      }
      const quoted = new RegExp(`(['"\`])${ELEMENT_FILES_MARKER}\\1`);
      if (!quoted.test(code))
        this.error(`${entryFileName} no longer holds ${ELEMENT_FILES_MARKER}; the element files have nowhere to go.`);
      // Only a string literal's content changes, on its own line: the source map stays right.
      return { code: code.replace(quoted, JSON.stringify(JSON.stringify(files))), map: null };
    },
  };
}
