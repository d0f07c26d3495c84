import type { Plugin } from 'vite';
import { readFile } from 'node:fs/promises';

/**
 * The script tag (dist/loyalty-widgets.js) holds the plumbing the elements share (vite.config.ts's
 * `loyalty-widgets` group), and each element's file imports it from there: on a page the script tag
 * has already run, so the elements cost no second copy of it, and the script tag itself imports no
 * other file. The headless entries (`loyalty-widgets/connect`, `loyalty-widgets/marketing`, the
 * standalone callback page's script) must not run the script tag, so they get their own copy of
 * every module they reach, statically or by a dynamic import, dependencies from node_modules
 * included: none of their files imports the script tag, or shares a chunk with the elements.
 *
 * A page that uses a headless entry beside the elements has two copies of what both use. What two
 * copies must both see (the early answers, the strings, the shipped callback page) lives in
 * src/shared/page-registry.ts, on the page, not in a module; the session's tabs and copies tell each
 * other of changes on one BroadcastChannel.
 *
 * `suffix` marks this set's copies: another set (the printer of preloaded first pages,
 * dist/first-page.js, which a page loads by its name and which must import no file) takes its own, so
 * that no chunk is shared between the two sets either.
 */
export function headlessCopies(entries: readonly string[], suffix = '?headless-copy'): Plugin {
  const isCopy = (id: string): boolean => id.endsWith(suffix);
  const original = (id: string): string => (isCopy(id) ? id.slice(0, -suffix.length) : id);
  return {
    name: `loyalty-copies${suffix}`,
    apply: 'build',
    resolveId: {
      order: 'pre',
      async handler(source, importer, options) {
        if (!importer || (!entries.includes(original(importer)) && !isCopy(importer))) return null;
        const resolved = await this.resolve(source, original(importer), { ...options, skipSelf: true });
        if (!resolved || resolved.external || resolved.id.startsWith('\0')) return resolved;
        return { ...resolved, id: resolved.id + suffix };
      },
    },
    load(id) {
      return isCopy(id) ? readFile(original(id), 'utf8') : null;
    },
  };
}
