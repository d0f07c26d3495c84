/** Finding an element's shadow parts the way a merchant's `::part()` rule names them. */
import { waitUntil } from '@open-wc/testing';

/** The first node in the element's shadow root with this part name (`[part~="name"]`), or null. */
export function part<T extends HTMLElement = HTMLElement>(el: Element, name: string): T | null {
  return el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
}

/** Every node in the element's shadow root with this part name, in document order. */
export function parts<T extends HTMLElement = HTMLElement>(el: Element, name: string): T[] {
  return [...el.shadowRoot!.querySelectorAll<T>(`[part~="${name}"]`)];
}

/** The first node in the element's shadow root that matches a selector (several parts at once, say), or null. */
export function inShadow<T extends HTMLElement = HTMLElement>(el: Element, selector: string): T | null {
  return el.shadowRoot!.querySelector<T>(selector);
}

/** Every node in the element's shadow root that matches a selector. */
export function allInShadow<T extends HTMLElement = HTMLElement>(el: Element, selector: string): T[] {
  return [...el.shadowRoot!.querySelectorAll<T>(selector)];
}

/** Waits until the element shows one of these parts: its content, its empty state or a failure, say. */
export async function showsOneOf(el: Element, names: string[], timeout = 8000): Promise<void> {
  const selector = names.map((name) => `[part~="${name}"]`).join(', ');
  await waitUntil(() => inShadow(el, selector), `<${el.localName}> shows none of ${names.join(', ')}`, { timeout });
}
