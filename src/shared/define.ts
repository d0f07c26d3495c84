import { VERSION } from './version.ts';

/** Tags whose clash with another definition was already reported by this copy. */
const reported = new Set<string>();

/** The version a constructor declares (`static version`, as ours do), if any. */
function versionOf(ctor: CustomElementConstructor): string | undefined {
  const version = (ctor as { version?: unknown }).version;
  return typeof version === 'string' ? version : undefined;
}

/**
 * Tells the developer, once per tag, that the tag was already defined by another copy of the
 * widgets (or another library), naming both versions: this copy's elements are not used.
 */
export function reportDefinedElsewhere(tag: string, existing: CustomElementConstructor): void {
  if (reported.has(tag)) return;
  reported.add(tag);
  const other = versionOf(existing);
  console.warn(
    `loyalty-widgets: <${tag}> is already defined by ${other ? `loyalty-widgets ${other}` : 'another definition'}; ` +
      `this copy (loyalty-widgets ${VERSION}) is not used. Load the widgets once per page.`,
  );
}

/**
 * Defines a custom element unless the tag is already taken. A merchant's page may load the script
 * twice (a CMS block and a theme both add it); the second copy must be a no-op, not a crash. The
 * same constructor again is silent; a different one (another version, another library) is
 * reported once, since the page then runs code other than this copy's.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor): void {
  const existing = customElements.get(tag);
  if (!existing) customElements.define(tag, ctor);
  else if (existing !== ctor) reportDefinedElsewhere(tag, existing);
}
