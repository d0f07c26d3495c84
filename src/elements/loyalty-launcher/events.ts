/** How the panel was opened: the launcher's button, a link to its fragment (`#loyalty`), or the page's script (`open()`). */
export type LauncherOpenTrigger = 'button' | 'link' | 'script';

/** How the panel was closed. */
export type LauncherCloseReason = 'button' | 'close-button' | 'escape' | 'script';

/** The parts of the panel, in their order. */
export type LauncherSection = 'account' | 'campaigns' | 'coupons' | 'partners';

/** Detail of `loyalty-launcher-open`. */
export interface LauncherOpenDetail {
  trigger: LauncherOpenTrigger;
  /** True when the panel opened as a modal sheet covering the screen (at most 480px wide). */
  modal: boolean;
}

/** Detail of `loyalty-launcher-close`. */
export interface LauncherCloseDetail {
  reason: LauncherCloseReason;
}

/** Detail of `loyalty-launcher-section`. */
export interface LauncherSectionDetail {
  /** The part of the panel the shopper moved into. */
  section: LauncherSection;
  /** The part they came from, or null for the first one since the panel opened. */
  previous: LauncherSection | null;
}

/** The events `<loyalty-launcher>` sends, by name; they bubble to the document. */
export interface LoyaltyLauncherEventMap {
  'loyalty-launcher-open': CustomEvent<LauncherOpenDetail>;
  'loyalty-launcher-close': CustomEvent<LauncherCloseDetail>;
  'loyalty-launcher-section': CustomEvent<LauncherSectionDetail>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the DOM's own map
  interface HTMLElementEventMap extends LoyaltyLauncherEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- they bubble, composed, to the document
  interface DocumentEventMap extends LoyaltyLauncherEventMap {}
}
