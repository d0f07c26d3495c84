/** The answers the hostile test provider can give (browser-safe: tests import these lists). */
import type { SignInErrorCode } from '../../src/connect/errors.ts';

/** Responses every relying party must refuse with invalid_token (the ID token or its binding is wrong). */
export const REFUSED_TOKEN_SCENARIOS = [
  'bad-signature',
  'alg-none',
  'hs256-public-key',
  'wrong-iss',
  'wrong-aud',
  'expired',
  'missing-iat',
  'missing-sub',
  'wrong-nonce',
  'missing-nonce',
  'wrong-at-hash',
  'missing-at-hash',
  'unknown-kid',
  'future-iat',
  'foreign-azp',
] as const;

export const SCENARIOS = [
  'valid',
  'valid-no-kid',
  'expired-within-skew',
  'no-profile-scope',
  'access-denied',
  'server-error',
  ...REFUSED_TOKEN_SCENARIOS,
  'rotate-keys',
  'forged-state',
  'replay-previous',
  'me-other-sub',
  'me-without-sub',
  'hold',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** How a sign-in must end when the provider answers with a scenario: refused with `code`, no user kept. */
export interface ExpectedRefusal {
  scenario: Scenario;
  code: SignInErrorCode;
  /** Whether the profile (/me) was asked for before the refusal: only once the tokens passed every check. */
  askedProfile: boolean;
}

/** Every answer a single sign-in must refuse, and how. */
export const EXPECTED_REFUSALS: readonly ExpectedRefusal[] = [
  ...REFUSED_TOKEN_SCENARIOS.map((scenario) => ({ scenario, code: 'invalid_token' as const, askedProfile: false })),
  // A profile of another subject, or of none, cannot be tied to the signed-in shopper.
  { scenario: 'me-other-sub', code: 'invalid_token', askedProfile: true },
  { scenario: 'me-without-sub', code: 'invalid_token', askedProfile: true },
  { scenario: 'forged-state', code: 'state_mismatch', askedProfile: false },
  // The shopper cancelled at the provider: said in plain words, not as a failure of the site.
  { scenario: 'access-denied', code: 'access_denied', askedProfile: false },
  // The provider is down for a while: a passing network trouble, not a set-up mistake.
  { scenario: 'server-error', code: 'network', askedProfile: false },
];

/** The code the hostile server's Marketing endpoint gives for every claim. */
export const PLANTED_CODE = 'EVIL-PLANTED-CODE';

/** The campaign of the file planted on the test site (/__uploads/offer.json): the one its code would be shown for. */
export const UPLOADED_CAMPAIGN = 'camp-harbor-beans';

/**
 * One answer that reads as a campaign with a coupon and as a minted coupon: what a file planted on a
 * server (an upload it answers every POST with) holds to pass for a proxy.
 */
export function plantedAnswer(campaignId: string) {
  const objective = { __typename: 'CouponObjective', price: 1 };
  return {
    data: {
      campaign: { id: campaignId, content: { title: 'A campaign', objective } },
      requestCoupon: { coupon: { code: PLANTED_CODE } },
    },
  };
}
