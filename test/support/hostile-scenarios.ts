/** The answers the hostile test provider can give (browser-safe: tests import these lists). */
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
