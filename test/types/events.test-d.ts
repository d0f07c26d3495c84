/**
 * Checked by `npm run typecheck`, never run: a merchant's listeners get each event's detail type
 * from its name, and `document.createElement` / `querySelector` give the element's class. A line
 * marked `@ts-expect-error` that type-checks fails the check. Types are checked exactly: a value of
 * type `any`, or of a wider or narrower type than the one named, fails.
 */
import type { CampaignCarousel } from '../../src/elements/campaign-carousel/index.ts';
import type { CouponClaim } from '../../src/elements/coupon-claim/index.ts';
import type { BusinessDirectory } from '../../src/elements/business-directory/index.ts';
import type { LoyaltySigninButton } from '../../src/elements/loyalty-signin-button/index.ts';
import type { LoyaltyUser } from '../../src/connect/session.ts';
import type { Campaign } from '../../src/marketing/types.ts';
import { emit } from '../../src/shared/emit.ts';

/** True when A and B are the same type (`any` equals only `any`). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** `expectType<T>()(value)` type-checks only when the value's type is exactly T. */
declare function expectType<Expected>(): <Actual>(
  value: Actual,
  ...exactly: Equal<Actual, Expected> extends true ? [] : [never]
) => void;

// The check itself: it refuses `any`, a wider type and a narrower one.
declare const anything: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- what the check must refuse
declare const maybeText: string | undefined;
// @ts-expect-error any is not exactly string
expectType<string>()(anything);
// @ts-expect-error string | undefined is not exactly string
expectType<string>()(maybeText);
// @ts-expect-error 'a' is not exactly string
expectType<string>()('a' as const);
expectType<string | undefined>()(maybeText);

const claim = document.createElement('coupon-claim');
expectType<CouponClaim>()(claim);
expectType<CampaignCarousel | null>()(document.querySelector('campaign-carousel'));
expectType<BusinessDirectory | null>()(document.querySelector('business-directory'));
expectType<LoyaltySigninButton | null>()(document.querySelector('loyalty-signin-button'));

claim.addEventListener('coupon-claimed', (event) => {
  expectType<string>()(event.detail.code);
  expectType<string>()(event.detail.campaignId);
  // @ts-expect-error the detail has no such field
  void event.detail.coupon;
});
claim.addEventListener('coupon-claim-error', (event) => {
  expectType<string>()(event.detail.message);
  expectType<string>()(event.detail.code);
  expectType<string>()(event.detail.campaignId);
});

// Every event bubbles to the document, where a page listens for all of its elements at once.
document.addEventListener('campaign-select', (event) => expectType<Campaign>()(event.detail.campaign));
document.addEventListener('loyalty-signin', (event) => {
  expectType<LoyaltyUser>()(event.detail.user);
  expectType<'signin' | 'restored'>()(event.detail.reason);
  expectType<boolean>()(event.detail.profile);
});
document.addEventListener('loyalty-signout', (event) => expectType<'signout' | 'expired'>()(event.detail.reason));
document.addEventListener('loyalty-signin-error', (event) => {
  // Exactly the documented codes, no more and no fewer.
  expectType<
    'access_denied' | 'popup_blocked' | 'popup_closed' | 'invalid_token' | 'state_mismatch' | 'network' | 'config'
  >()(event.detail.code);
  expectType<string>()(event.detail.message);
  // @ts-expect-error the code is one of the documented codes, not any string
  expectType<string>()(event.detail.code);
});

// The elements' own emit is held to the same types.
emit(claim, 'coupon-claimed', { campaignId: 'c1', code: 'A1' });
// @ts-expect-error a wrong detail for the event's name
emit(claim, 'coupon-claimed', { campaignId: 'c1' });
// @ts-expect-error an event no element sends
emit(claim, 'coupon-claimd', { campaignId: 'c1', code: 'A1' });
