/**
 * Runs `action` once, on the shopper's first sign of intent towards `element`: the pointer reaching
 * it, the focus entering it, or a first press (a touch has no hover). Code a click needs is fetched
 * then, so that by the click it is usually here, and a page whose shopper never goes near the
 * element never fetches it. Returns a function that stops watching.
 */
export function onIntent(element: HTMLElement, action: () => void): () => void {
  const intents = ['pointerenter', 'focusin', 'pointerdown', 'keydown'] as const;
  const stop = (): void => {
    for (const intent of intents) element.removeEventListener(intent, act);
  };
  function act(): void {
    stop();
    action();
  }
  for (const intent of intents) element.addEventListener(intent, act);
  return stop;
}
