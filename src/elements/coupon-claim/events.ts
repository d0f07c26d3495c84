/** Detail of `coupon-claimed`. */
export interface CouponClaimedDetail {
  campaignId: string;
  code: string;
}

/** Detail of `coupon-claim-error`. */
export interface CouponClaimErrorDetail {
  campaignId: string;
  /** The error code (`rate_limited`, `network`, `signin_required`, …). */
  code: string;
  /** A localized sentence for the shopper. */
  message: string;
}

/** The events `<coupon-claim>` sends, by name; they bubble to the document. */
export interface CouponClaimEventMap {
  'coupon-claimed': CustomEvent<CouponClaimedDetail>;
  'coupon-claim-error': CustomEvent<CouponClaimErrorDetail>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the DOM's own map
  interface HTMLElementEventMap extends CouponClaimEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- they bubble, composed, to the document
  interface DocumentEventMap extends CouponClaimEventMap {}
}
