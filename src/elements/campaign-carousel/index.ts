import { defineElement } from '../../shared/define.ts';
import { CampaignCarousel } from './campaign-carousel.ts';

export { CampaignCarousel };
export type { CampaignSelectDetail } from './events.ts';
export type { MarketingElement } from '../internal/marketing-element.ts';
export type { LoyaltyElement } from '../internal/loyalty-element.ts';
export type { Campaign, CampaignImage, CampaignObjective } from '../../marketing/types.ts';

defineElement('campaign-carousel', CampaignCarousel);

declare global {
  interface HTMLElementTagNameMap {
    'campaign-carousel': CampaignCarousel;
  }
}
