import { defineElement } from '../../shared/define.ts';
import { CouponClaim } from './coupon-claim.ts';

export { CouponClaim };
export type { CouponClaimedDetail, CouponClaimErrorDetail } from './events.ts';

defineElement('coupon-claim', CouponClaim);

declare global {
  interface HTMLElementTagNameMap {
    'coupon-claim': CouponClaim;
  }
}
