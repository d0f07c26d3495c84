import { onClaimChange, onCouponStored } from '../../marketing/kept-coupons.ts';

/**
 * Renders `host` again when its campaign's coupon is stored or a claim for it starts or settles, here
 * or in another element of the page (busy, then the code); returns the way to stop.
 */
export function onCampaignClaims(host: { readonly campaignId: string; requestUpdate(): void }): () => void {
  const mine = (campaignId: string): boolean => campaignId === host.campaignId.trim();
  const stops = [
    onCouponStored((coupon) => mine(coupon.campaignId) && host.requestUpdate()),
    onClaimChange((campaignId) => mine(campaignId) && host.requestUpdate()),
  ];
  return () => stops.forEach((stop) => stop());
}
