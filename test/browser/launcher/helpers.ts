/** Reaching into `<loyalty-launcher>`: its button, its dialog, and the elements its panel holds. */
import { waitUntil } from '@open-wc/testing';
import type { LoyaltyLauncher } from '../../../src/elements/loyalty-launcher/index.ts';
import type { LauncherPanelContent } from '../../../src/elements/loyalty-launcher/launcher-panel.ts';
import { part } from '../parts.ts';

export const launcherButton = (launcher: LoyaltyLauncher): HTMLButtonElement =>
  part<HTMLButtonElement>(launcher, 'button')!;

export const dialogOf = (launcher: LoyaltyLauncher): HTMLDialogElement | null =>
  launcher.shadowRoot!.querySelector('dialog');

export function contentOf(launcher: LoyaltyLauncher): LauncherPanelContent {
  const content = dialogOf(launcher)?.querySelector<LauncherPanelContent>('loyalty-launcher-panel');
  if (!content) throw new Error('the panel is not loaded');
  return content;
}

/** An element of the panel (by selector, in its shadow root). */
export function inPanel<T extends Element = HTMLElement>(launcher: LoyaltyLauncher, selector: string): T | null {
  return contentOf(launcher).shadowRoot!.querySelector<T>(selector);
}

/** The deepest focused element, across shadow roots. */
export function deepActive(root: Document | ShadowRoot = document): Element | null {
  const active = root.activeElement;
  return active?.shadowRoot?.activeElement ? deepActive(active.shadowRoot) : active;
}

export async function waitOpen(launcher: LoyaltyLauncher, open = true): Promise<void> {
  await waitUntil(
    () => dialogOf(launcher)?.open === open && launcher.opened === open,
    `the panel is ${open ? 'not open' : 'still open'}`,
    {
      timeout: 8000,
    },
  );
}

/** The events the launcher sent, in order, as `name:detail` strings. */
export function recordEvents(target: EventTarget) {
  const seen: string[] = [];
  const names = ['loyalty-launcher-open', 'loyalty-launcher-close', 'loyalty-launcher-section'] as const;
  const record = (event: Event) => seen.push(`${event.type}:${JSON.stringify((event as CustomEvent).detail)}`);
  for (const name of names) target.addEventListener(name, record);
  return { seen, stop: () => names.forEach((name) => target.removeEventListener(name, record)) };
}
