/**
 * Checks an authorization request (GET query or POST form) as the spec states. Client id and redirect
 * URI are checked first and their errors are shown on the provider (never sent to an unproven URI);
 * every later error goes back to the proven redirect URI as an OAuth error in the fragment.
 */
import type { AppRegistration, AppRegistry } from './apps.ts';
import {
  KNOWN_PARAMETERS,
  MAX_PARAM_LENGTH,
  readOptionalParameters,
  UNSUPPORTED_FEATURES,
  type OptionalParameters,
} from './request-params.ts';

export type ResponseType = 'id_token token' | 'id_token';
export const SUPPORTED_SCOPES = ['openid', 'profile'] as const;
/** Short enough for any real client (the OpenID Foundation's suite sends 10), long enough to catch `nonce=1`. */
export const MIN_NONCE_LENGTH = 8;

export interface AuthRequest extends OptionalParameters {
  clientId: string;
  appName: string;
  redirectUri: string;
  responseType: ResponseType;
  /** The scopes granted: those requested that this provider knows. */
  scopes: string[];
  /** Whether some requested scopes were unknown and left out (the response then says what was granted). */
  scopesNarrowed: boolean;
  nonce: string;
  state?: string;
  /** The subject of the `id_token_hint`, once its signature has been checked. */
  hintSub?: string;
}

export type AuthCheck =
  | { outcome: 'ok'; request: AuthRequest }
  | { outcome: 'page'; message: string }
  | { outcome: 'redirect'; redirectUri: string; error: string; description: string; state?: string };

function single(params: URLSearchParams, name: string): string | undefined | null {
  const values = params.getAll(name);
  if (values.length > 1) return null;
  return values[0];
}

function responseTypeOf(raw: string): ResponseType | undefined {
  const parts = raw.split(' ').filter(Boolean);
  const set = new Set(parts);
  if (set.size !== parts.length) return undefined;
  if (set.size === 1 && set.has('id_token')) return 'id_token';
  if (set.size === 2 && set.has('id_token') && set.has('token')) return 'id_token token';
  return undefined;
}

/** Why a request is refused, sent back to its proven redirect URI. */
interface Refusal {
  error: string;
  description: string;
}

const refused = (error: string, description: string): Refusal => ({ error, description });
const isRefusal = (value: unknown): value is Refusal => typeof value === 'object' && value !== null && 'error' in value;

export function checkAuthRequest(params: URLSearchParams, apps: AppRegistry): AuthCheck {
  const client = proveClient(params, apps);
  if (typeof client === 'string') return { outcome: 'page', message: client };
  const { app, redirectUri } = client;

  const state = single(params, 'state');
  const fail = ({ error, description }: Refusal): AuthCheck => ({
    outcome: 'redirect',
    redirectUri,
    error,
    description,
    ...(typeof state === 'string' && state.length <= MAX_PARAM_LENGTH ? { state } : {}),
  });
  const shape = checkShape(params, state);
  if (shape) return fail(shape);
  const responseType = readResponseType(params);
  if (isRefusal(responseType)) return fail(responseType);
  const granted = readScopes(params);
  if (isRefusal(granted)) return fail(granted);
  const nonce = readNonce(params);
  if (isRefusal(nonce)) return fail(nonce);
  const optional = readOptionalParameters(params);
  if (!optional.ok) return fail(refused('invalid_request', optional.description));

  return {
    outcome: 'ok',
    request: {
      clientId: app.app_id,
      appName: app.name,
      redirectUri,
      responseType,
      ...granted,
      nonce,
      ...(typeof state === 'string' ? { state } : {}),
      ...optional.value,
    },
  };
}

/**
 * The app and the redirect URI, proven against the registration; otherwise the message shown on the
 * provider's own page, since an unproven URI is never sent anything.
 */
function proveClient(
  params: URLSearchParams,
  apps: AppRegistry,
): { app: AppRegistration; redirectUri: string } | string {
  const clientId = single(params, 'client_id');
  if (clientId === null) return 'The request has more than one client_id.';
  if (!clientId) return 'The request has no client_id. The app that sent you here must pass its app_id as client_id.';
  const app = apps.find(clientId);
  if (!app) return `No app is registered with the client_id “${clientId}”.`;

  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === null) return 'The request has more than one redirect_uri.';
  if (!redirectUri) return 'The request has no redirect_uri.';
  // Exact string comparison: no normalising of case, trailing slashes, ports, query strings or userinfo.
  if (!app.redirect_uris.includes(redirectUri)) {
    return `The redirect_uri “${redirectUri}” is not registered for ${app.name}. It must match one of the app’s registered redirect URIs exactly.`;
  }
  return { app, redirectUri };
}

/** The request's form: one state of a sane length, no repeated parameter, no feature this provider lacks. */
function checkShape(params: URLSearchParams, state: string | null | undefined): Refusal | undefined {
  if (state === null) return refused('invalid_request', 'The request has more than one state.');
  if (state !== undefined && state.length > MAX_PARAM_LENGTH)
    return refused('invalid_request', `state is longer than ${MAX_PARAM_LENGTH} characters.`);
  const repeated = KNOWN_PARAMETERS.filter((name) => params.getAll(name).length > 1);
  if (repeated.length) return refused('invalid_request', `The request has more than one ${repeated.join(', ')}.`);
  // Checked before the others, which may legitimately live only inside a request object.
  for (const [name, error, description] of UNSUPPORTED_FEATURES)
    if (params.has(name)) return refused(error, description);
  return undefined;
}

function readResponseType(params: URLSearchParams): ResponseType | Refusal {
  const rawResponseType = params.get('response_type');
  if (!rawResponseType) return refused('invalid_request', 'response_type is required: id_token token, or id_token.');
  const responseType = responseTypeOf(rawResponseType);
  if (!responseType)
    return refused(
      'unsupported_response_type',
      'This response_type is not supported; use id_token token, or id_token (the implicit flow).',
    );
  const responseMode = params.get('response_mode');
  if (responseMode !== null && responseMode !== 'fragment')
    return refused('invalid_request', 'Only response_mode fragment is supported.');
  return responseType;
}

function readScopes(params: URLSearchParams): Pick<AuthRequest, 'scopes' | 'scopesNarrowed'> | Refusal {
  const requested = [...new Set((params.get('scope') ?? '').split(' ').filter(Boolean))];
  if (!requested.includes('openid')) return refused('invalid_scope', 'scope must contain openid.');
  // Scope values a provider does not understand are ignored (OpenID Connect Core 3.1.2.1), and the
  // response names the scopes granted (RFC 6749 4.2.2).
  const scopes = requested.filter((scope) => (SUPPORTED_SCOPES as readonly string[]).includes(scope));
  return { scopes, scopesNarrowed: scopes.length !== requested.length };
}

function readNonce(params: URLSearchParams): string | Refusal {
  const nonce = params.get('nonce');
  if (!nonce) return refused('invalid_request', 'nonce is required.');
  if (nonce.length < MIN_NONCE_LENGTH)
    return refused(
      'invalid_request',
      `nonce is too short to be unguessable; use at least ${MIN_NONCE_LENGTH} characters (for example the hash of a random value).`,
    );
  if (nonce.length > MAX_PARAM_LENGTH)
    return refused('invalid_request', `nonce is longer than ${MAX_PARAM_LENGTH} characters.`);
  return nonce;
}

/**
 * RFC 6749 §4.1.2.1: error_description holds only printable ASCII without `"` and `\`. Anything else
 * (a quote, a character echoed from the request) becomes a plain stand-in.
 */
export function oauthErrorText(text: string): string {
  return text
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}

/** The redirect URI with the response in the fragment, encoded as application/x-www-form-urlencoded. */
export function fragmentRedirect(redirectUri: string, fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) params.set(name, name === 'error_description' ? oauthErrorText(value) : value);
  }
  return `${redirectUri}#${params.toString()}`;
}
