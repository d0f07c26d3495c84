import { defineElement } from '../../shared/define.ts';
import { CouponClaim } from './coupon-claim.ts';

export { CouponClaim };
export type { CouponClaimedDetail, CouponClaimErrorDetail } from './coupon-claim.ts';

defineElement('coupon-claim', CouponClaim);

declare global {
  interface HTMLElementTagNameMap {
    'coupon-claim': CouponClaim;
  }
}
