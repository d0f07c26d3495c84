import type { PropertyDeclarations } from 'lit';
import { LoyaltyElement } from './loyalty-element.ts';
import { marketingMessages } from './messages.ts';

/** The elements that show the loyalty program's Marketing data, read through the merchant's proxy. */
export class MarketingElement extends LoyaltyElement {
  /** @internal */
  protected static override messages = marketingMessages;
  /** @internal The reactive properties, each documented at its field. */
  static override properties: PropertyDeclarations = { endpoint: {} };

  /** URL of the merchant's Marketing proxy; defaults to the page's `<meta name="loyalty-endpoint">`, then `/api/marketing`. */
  declare endpoint?: string;
}
