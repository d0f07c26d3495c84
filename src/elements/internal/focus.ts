/** Keeping keyboard and screen-reader users in place when the control they used goes away. */
import type { ReactiveElement } from 'lit';

/**
 * Runs a retry. The pressed button disappears with the failure, so a keyboard or screen-reader user
 * would be left on the page's `body`: focus moves to the element's `base` part, which stays.
 */
export function retryKeepingFocus(host: HTMLElement, event: Event, retry: () => void): void {
  const button = event.currentTarget as HTMLElement;
  const hadFocus = button.matches(':focus');
  retry();
  const base = host.shadowRoot?.querySelector<HTMLElement>('[part~="base"]');
  if (!hadFocus || !base) return;
  if (!base.hasAttribute('tabindex')) base.tabIndex = -1;
  base.focus({ preventScroll: true });
}

/**
 * After the host's next render, moves focus to the first control matching `selectors`: the one that
 * replaced the control which had focus, so keyboard users stay where they were.
 */
export async function focusReplacement(host: ReactiveElement, selectors: string): Promise<void> {
  await host.updateComplete;
  host.renderRoot.querySelector<HTMLElement>(selectors)?.focus();
}
