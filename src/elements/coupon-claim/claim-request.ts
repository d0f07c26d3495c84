import { session, type LoyaltyUser } from '../../connect/session.ts';
import { clientFor } from '../../marketing/client.ts';
import { claimCoupon } from '../../marketing/coupon-claims.ts';
import { MarketingError } from '../../marketing/errors.ts';
import type { Coupon } from '../../marketing/types.ts';

/**
 * The claim itself, which `<coupon-claim>` loads when the shopper is about to claim (or at the claim).
 *
 * Claims the coupon for `user`, the shopper signed in when the claim began (null for a guest);
 * `another` asks for a new one although one is kept. When the proxy refuses that shopper's tokens,
 * the session is over for every element and tab, and the header says so rather than "Signed in as …"
 * beside "Please sign in again".
 */
export async function claimAsShopper(
  endpoint: string,
  campaignId: string,
  user: LoyaltyUser | null,
  { requireSignin, another }: { requireSignin: boolean; another: boolean },
): Promise<Coupon> {
  try {
    return await claimCoupon(clientFor(endpoint), {
      campaignId,
      shopper: user?.sub,
      accessToken: user?.accessToken,
      idToken: user?.idToken,
      requireSignin,
      another,
    });
  } catch (error) {
    const refused = error instanceof MarketingError && error.status === 401;
    if (user && refused && session.user?.accessToken === user.accessToken) session.set(null, 'expired');
    throw error;
  }
}
