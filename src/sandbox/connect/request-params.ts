/**
 * The optional OpenID Connect Core §3.1.2.1 request parameters: accepted as a conformant provider
 * does, honoured where they mean something here (`prompt`, `max_age`, `login_hint`, `id_token_hint`),
 * checked for well-formed values, and otherwise ignored (`ui_locales`, `claims_locales`, `acr_values`,
 * `claims`). Request objects and dynamic registration are not supported and say so with their own errors.
 */

export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;
export type Prompt = (typeof PROMPT_VALUES)[number];
export const DISPLAY_VALUES = ['page', 'popup', 'touch', 'wap'] as const;
export const UI_LOCALES = ['en'] as const;

/** Longest value taken from a request for state, nonce and the hints. */
export const MAX_PARAM_LENGTH = 2048;
const MAX_ID_TOKEN_HINT_LENGTH = 8192;

/** Every parameter this provider reads; each may appear once (RFC 6749 §3.1). Others are ignored. */
export const KNOWN_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'nonce',
  'state',
  'response_mode',
  'prompt',
  'max_age',
  'login_hint',
  'id_token_hint',
  'display',
  'ui_locales',
  'claims_locales',
  'acr_values',
  'claims',
  'request',
  'request_uri',
  'registration',
] as const;

/** Parameters whose mere presence is refused, with the error OpenID Connect Core §3.1.2.6 names for each. */
export const UNSUPPORTED_FEATURES = [
  [
    'request',
    'request_not_supported',
    'Request objects (the request parameter) are not supported; send the parameters in the query.',
  ],
  ['request_uri', 'request_uri_not_supported', 'request_uri is not supported; send the parameters in the query.'],
  [
    'registration',
    'registration_not_supported',
    'Dynamic registration (the registration parameter) is not supported; register the app with the sandbox CLI.',
  ],
] as const;

export interface OptionalParameters {
  /** Empty when absent; never `none` together with another value. */
  prompt: Prompt[];
  /** Seconds; the user signs in again when the password was entered longer ago. */
  maxAge?: number;
  /** Pre-fills the username on the sign-in form. */
  loginHint?: string;
  /** An ID token this provider issued earlier, naming the user the app expects. */
  idTokenHint?: string;
}

export type OptionalCheck = { ok: true; value: OptionalParameters } | { ok: false; description: string };

/** Reads the optional parameters from a request whose parameters are known to appear at most once. */
export function readOptionalParameters(params: URLSearchParams): OptionalCheck {
  const fail = (description: string): OptionalCheck => ({ ok: false, description });

  const rawPrompt = params.get('prompt');
  const prompt = [...new Set((rawPrompt ?? '').split(' ').filter(Boolean))];
  const unknownPrompt = prompt.filter((value) => !(PROMPT_VALUES as readonly string[]).includes(value));
  if (unknownPrompt.length) return fail(`Unknown prompt value. Supported: ${PROMPT_VALUES.join(', ')}.`);
  if (prompt.includes('none') && prompt.length > 1)
    return fail('prompt=none cannot be combined with other prompt values.');

  const rawMaxAge = params.get('max_age');
  let maxAge: number | undefined;
  if (rawMaxAge !== null) {
    maxAge = /^\d{1,10}$/.test(rawMaxAge) ? Number(rawMaxAge) : NaN;
    if (!Number.isSafeInteger(maxAge)) return fail('max_age must be a whole number of seconds.');
  }

  const display = params.get('display');
  if (display !== null && !(DISPLAY_VALUES as readonly string[]).includes(display))
    return fail(`Unknown display value. Supported: ${DISPLAY_VALUES.join(', ')}.`);

  const loginHint = params.get('login_hint') ?? undefined;
  if (loginHint !== undefined && loginHint.length > MAX_PARAM_LENGTH)
    return fail(`login_hint is longer than ${MAX_PARAM_LENGTH} characters.`);
  const idTokenHint = params.get('id_token_hint') || undefined;
  if (idTokenHint !== undefined && idTokenHint.length > MAX_ID_TOKEN_HINT_LENGTH)
    return fail('id_token_hint is too long to be an ID token of this provider.');

  return {
    ok: true,
    value: {
      prompt: prompt as Prompt[],
      ...(maxAge !== undefined ? { maxAge } : {}),
      ...(loginHint ? { loginHint } : {}),
      ...(idTokenHint ? { idTokenHint } : {}),
    },
  };
}
