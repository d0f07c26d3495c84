import type { Campaign } from '../../marketing/types.ts';

/** Detail of `campaign-select`. */
export interface CampaignSelectDetail {
  campaign: Campaign;
}

/** The events `<campaign-carousel>` sends, by name; they bubble to the document. */
export interface CampaignCarouselEventMap {
  'campaign-select': CustomEvent<CampaignSelectDetail>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the DOM's own map
  interface HTMLElementEventMap extends CampaignCarouselEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- they bubble, composed, to the document
  interface DocumentEventMap extends CampaignCarouselEventMap {}
}
