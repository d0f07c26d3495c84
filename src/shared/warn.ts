/** Problems already reported on this page, so a re-render never repeats a warning. */
const warned = new Set<string>();

/**
 * Tells the merchant's developer, once per page and problem, what is wrong with an element's
 * set-up (`console.warn`, prefixed with the tag). Returns whether this call printed it.
 */
export function warnOnce(element: Element, problem: string): boolean {
  const message = `loyalty-widgets: <${element.localName}> ${problem}`;
  if (warned.has(message)) return false;
  warned.add(message);
  console.warn(message);
  return true;
}
