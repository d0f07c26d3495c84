/**
 * Tells the developer, once per tag, that the tag was already defined by another copy of the
 * widgets (or another library), naming both versions: this copy's elements are not used. The
 * warning's code loads only when this happens; the promise settles once it is printed (or was
 * printed before).
 */
export function reportDefinedElsewhere(tag: string, existing: CustomElementConstructor): Promise<void> {
  return import('./defined-elsewhere.ts').then(({ reportOnce }) => reportOnce(tag, existing));
}

/**
 * Defines a custom element unless the tag is already taken. A merchant's page may load the script
 * twice (a CMS block and a theme both add it); the second copy must be a no-op, not a crash. The
 * same constructor again is silent; a different one (another version, another library) is
 * reported once, since the page then runs code other than this copy's: the promise returned then
 * settles once the report is printed.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor): Promise<void> | undefined {
  const existing = customElements.get(tag);
  if (!existing) customElements.define(tag, ctor);
  else if (existing !== ctor) return reportDefinedElsewhere(tag, existing);
  return undefined;
}
