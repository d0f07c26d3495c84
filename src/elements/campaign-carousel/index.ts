import { defineElement } from '../../shared/define.ts';
import { CampaignCarousel } from './campaign-carousel.ts';

export { CampaignCarousel };
export type { CampaignSelectDetail } from './events.ts';

defineElement('campaign-carousel', CampaignCarousel);

declare global {
  interface HTMLElementTagNameMap {
    'campaign-carousel': CampaignCarousel;
  }
}
