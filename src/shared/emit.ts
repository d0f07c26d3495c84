/**
 * Dispatches an event the way every element of this package does: it bubbles and crosses shadow
 * roots, so a merchant can listen on `document` for any element's events.
 */
export function emit<T>(target: EventTarget, name: string, detail: T, options: { cancelable?: boolean } = {}): boolean {
  return target.dispatchEvent(
    new CustomEvent<T>(name, { bubbles: true, composed: true, cancelable: options.cancelable ?? false, detail }),
  );
}
