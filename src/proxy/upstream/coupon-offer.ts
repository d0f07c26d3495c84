/**
 * Whether a campaign offers coupons, decided from the campaign itself when the upstream refused a
 * mint in words the proxy does not know: the wording varies (a Lambda's message, a resolver's), the
 * campaign's objective does not.
 */
import { ProxyError } from '../shared/errors.ts';

/**
 * Throws 422 `no_coupon_objective` when the campaign's objective is another kind than a coupon.
 * `readCampaign` gives the `campaign` query's normalized body; when it fails (other than a rate limit),
 * or shows no campaign (unknown, or a record the widgets cannot use) or no objective, the mint decides.
 */
export async function checkCouponOffer(
  readCampaign: () => Promise<string>,
  hasCouponType: () => Promise<boolean>,
): Promise<void> {
  let campaign: unknown;
  try {
    campaign = (JSON.parse(await readCampaign()) as { data?: { campaign?: unknown } }).data?.campaign;
  } catch (error) {
    if (error instanceof ProxyError && error.status === 429) throw error;
    return;
  }
  const objective = (campaign as { content?: { objective?: { __typename?: unknown } | null } } | undefined)?.content
    ?.objective;
  const type = objective?.__typename;
  // A non-coupon type counts only when the upstream has the coupon type: else every objective would look like one.
  if (typeof type === 'string' && type !== 'CouponObjective' && (await hasCouponType())) {
    throw new ProxyError(422, 'no_coupon_objective', 'This campaign has no coupon to give.');
  }
}
