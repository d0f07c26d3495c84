/**
 * The events this package's elements send: the names declared in `HTMLElementEventMap` as a
 * `CustomEvent` (each element's `events.ts` adds its own), so an event name and its detail type are
 * written once and both the elements and the merchant's listeners are checked against them.
 */
export type CustomEventName = {
  [K in keyof HTMLElementEventMap]: HTMLElementEventMap[K] extends CustomEvent<unknown> ? K : never;
}[keyof HTMLElementEventMap];

/** The detail type an event of this name carries. */
export type EventDetail<K extends CustomEventName> = HTMLElementEventMap[K] extends CustomEvent<infer D> ? D : never;

/**
 * Dispatches an event the way every element of this package does: it bubbles and crosses shadow
 * roots, so a merchant can listen on `document` for any element's events.
 */
export function emit<K extends CustomEventName>(target: EventTarget, name: K, detail: EventDetail<K>): boolean {
  return target.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, detail }));
}
