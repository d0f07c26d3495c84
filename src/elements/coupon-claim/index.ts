import { defineElement } from '../../shared/define.ts';
import { CouponClaim } from './coupon-claim.ts';

export { CouponClaim };
export type { CouponClaimedDetail, CouponClaimErrorDetail } from './events.ts';
export type { MarketingElement } from '../internal/marketing-element.ts';
export type { LoyaltyElement } from '../internal/loyalty-element.ts';
export type { Campaign, CampaignImage, CampaignObjective } from '../../marketing/types.ts';

defineElement('coupon-claim', CouponClaim);

declare global {
  interface HTMLElementTagNameMap {
    'coupon-claim': CouponClaim;
  }
}
