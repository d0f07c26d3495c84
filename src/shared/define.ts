/**
 * Defines a custom element unless the tag is already taken. A merchant's page may load the script
 * twice (a CMS block and a theme both add it); the second copy must be a no-op, not a crash.
 */
export function defineElement(tag: string, ctor: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, ctor);
}
