import { property } from 'lit/decorators.js';
import { LoyaltyElement } from './loyalty-element.ts';
import { marketingMessages } from './messages.ts';

/** The elements that show the loyalty program's Marketing data, read through the merchant's proxy. */
export class MarketingElement extends LoyaltyElement {
  /** @internal */
  protected static override messages = marketingMessages;

  /** URL of the merchant's Marketing proxy; defaults to the page's `<meta name="loyalty-endpoint">`, then `/api/marketing`. */
  @property() endpoint?: string;
}
