/**
 * `loyalty-widgets/marketing`: the browser client for the merchant's Marketing proxy, usable without
 * the elements (no Lit here). What only the elements need (whether a claim is running, the
 * trusted-origin check, the response readers) is imported from its module directly.
 */
export {
  MarketingClient,
  clientFor,
  type RequestOptions,
  type CampaignsVariables,
  type BusinessAccountsVariables,
} from './client.ts';
export { MarketingError, isAbortError } from './errors.ts';
export {
  claimCoupon,
  storedCoupon,
  onCouponStored,
  ANONYMOUS,
  type ClaimRequest,
  type StoredCoupon,
} from './coupon-claims.ts';
export type { Campaign, CampaignImage, CampaignObjective, BusinessAccount, Address, Coupon, Page } from './types.ts';
