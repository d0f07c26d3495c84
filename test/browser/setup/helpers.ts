/** Helpers for tests written as a merchant's developer would use the elements. */

/** Records `console.warn` calls until `restore()`. */
export function captureWarnings() {
  const original = console.warn;
  const messages: string[] = [];
  console.warn = (...args: unknown[]) => void messages.push(args.map(String).join(' '));
  return {
    messages,
    /** The warnings that mention this text. */
    about: (text: string) => messages.filter((message) => message.includes(text)),
    restore: () => void (console.warn = original),
  };
}

/** The element's visible text, whitespace collapsed. */
export function textOf(el: Element): string {
  return (el.shadowRoot ?? el).textContent!.replace(/\s+/g, ' ').trim();
}
