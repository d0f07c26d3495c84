/**
 * The warning for a tag another copy of the widgets (or another library) defined first: loaded only
 * when that happens (src/shared/define.ts).
 */
import { VERSION } from './version.ts';

/** Tags whose clash with another definition was already reported by this copy. */
const reported = new Set<string>();

/**
 * Tells the developer, once per tag, that the tag was already defined by another copy of the
 * widgets (or another library), naming both versions: this copy's elements are not used.
 */
export function reportOnce(tag: string, existing: CustomElementConstructor): void {
  if (reported.has(tag)) return;
  reported.add(tag);
  // The version a constructor declares (`static version`, as ours do), if any.
  const other = (existing as { version?: unknown }).version;
  console.warn(
    `loyalty-widgets: <${tag}> is already defined by ${typeof other === 'string' ? `loyalty-widgets ${other}` : 'another definition'}; ` +
      `this copy (loyalty-widgets ${VERSION}) is not used. Load the widgets once per page.`,
  );
}
