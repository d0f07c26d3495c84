import type { LauncherCloseReason } from './events.ts';

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
  /** The campaigns whose coupon the shopper received in this visit (claimed-coupons.ts), as the button follows them. */
  readonly coupons: {
    list(): string[];
    onChange(listener: () => void): () => void;
    forget(): void;
  };
  expanded(open: boolean): void;
  forgetLink(): void;
}
