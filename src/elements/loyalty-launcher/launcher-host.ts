import type { CustomEventName, EventDetail } from '../../shared/emit.ts';
import type { LauncherCloseReason, LauncherOpenTrigger } from './events.ts';

/**
 * What the panel uses of its `<loyalty-launcher>`. The panel, loaded on the shopper's intent, knows
 * the button through this alone, so neither module imports the other's.
 */
export interface LauncherHost extends HTMLElement {
  readonly endpoint: string;
  readonly businessAccountId: string;
  readonly currency: string;
  readonly opened: boolean;
  readonly labelText: string;
  readonly button: HTMLButtonElement;
  close(reason?: LauncherCloseReason): Promise<void>;
  expanded(open: boolean, trigger?: LauncherOpenTrigger, modal?: boolean): void;
  emit<K extends CustomEventName>(name: K, detail: EventDetail<K>): boolean;
  forgetLink(): void;
}
