/**
 * Checks a GET /auth request as the spec states. Client id and redirect URI are checked first and
 * their errors are shown on the provider (never sent to an unproven URI); every later error goes
 * back to the proven redirect URI as an OAuth error in the fragment.
 */
import type { AppRegistry } from './apps.ts';

export type ResponseType = 'id_token token' | 'id_token';
export const SUPPORTED_SCOPES = ['openid', 'profile'] as const;
export const MIN_NONCE_LENGTH = 16;
const MAX_PARAM_LENGTH = 2048;

/** OpenID Connect request parameters the spec says must not be used; refused rather than ignored. */
const UNSUPPORTED_PARAMETERS = [
  'prompt', 'max_age', 'ui_locales', 'id_token_hint', 'login_hint', 'acr_values', 'display', 'claims',
  'claims_locales', 'request', 'request_uri', 'registration', 'code_challenge', 'code_challenge_method',
];

export interface AuthRequest {
  clientId: string;
  appName: string;
  redirectUri: string;
  responseType: ResponseType;
  scopes: string[];
  nonce: string;
  state?: string;
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

export function checkAuthRequest(params: URLSearchParams, apps: AppRegistry): AuthCheck {
  const clientId = single(params, 'client_id');
  if (clientId === null) return { outcome: 'page', message: 'The request has more than one client_id.' };
  if (!clientId) return { outcome: 'page', message: 'The request has no client_id. The app that sent you here must pass its app_id as client_id.' };
  const app = apps.find(clientId);
  if (!app) return { outcome: 'page', message: `No app is registered with the client_id “${clientId}”.` };

  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === null) return { outcome: 'page', message: 'The request has more than one redirect_uri.' };
  if (!redirectUri) return { outcome: 'page', message: 'The request has no redirect_uri.' };
  // Exact string comparison: no normalising of case, trailing slashes, ports or query strings.
  if (!app.redirect_uris.includes(redirectUri)) {
    return {
      outcome: 'page',
      message: `The redirect_uri “${redirectUri}” is not registered for ${app.name}. It must match one of the app’s registered redirect URIs exactly.`,
    };
  }

  const state = single(params, 'state');
  const fail = (error: string, description: string): AuthCheck => ({
    outcome: 'redirect',
    redirectUri,
    error,
    description,
    ...(typeof state === 'string' && state.length <= MAX_PARAM_LENGTH ? { state } : {}),
  });

  if (state === null) return fail('invalid_request', 'The request has more than one state.');
  if (state !== undefined && state.length > MAX_PARAM_LENGTH) return fail('invalid_request', `state is longer than ${MAX_PARAM_LENGTH} characters.`);

  const rawResponseType = single(params, 'response_type');
  if (rawResponseType === null) return fail('invalid_request', 'The request has more than one response_type.');
  if (!rawResponseType) return fail('invalid_request', 'response_type is required: "id_token token" or "id_token".');
  const responseType = responseTypeOf(rawResponseType);
  if (!responseType) return fail('unsupported_response_type', `response_type "${rawResponseType}" is not supported; use "id_token token" or "id_token".`);

  const rawScope = single(params, 'scope');
  if (rawScope === null) return fail('invalid_request', 'The request has more than one scope.');
  const scopes = [...new Set((rawScope ?? '').split(' ').filter(Boolean))];
  if (!scopes.includes('openid')) return fail('invalid_scope', 'scope must contain "openid".');
  const unknown = scopes.filter((scope) => !(SUPPORTED_SCOPES as readonly string[]).includes(scope));
  if (unknown.length) return fail('invalid_scope', `Unsupported scope: ${unknown.join(' ')}. Supported: ${SUPPORTED_SCOPES.join(' ')}.`);

  const nonce = single(params, 'nonce');
  if (nonce === null) return fail('invalid_request', 'The request has more than one nonce.');
  if (!nonce) return fail('invalid_request', 'nonce is required.');
  if (nonce.length < MIN_NONCE_LENGTH) return fail('invalid_request', `nonce is too short to be unguessable; use at least ${MIN_NONCE_LENGTH} characters (for example the hash of a random value).`);
  if (nonce.length > MAX_PARAM_LENGTH) return fail('invalid_request', `nonce is longer than ${MAX_PARAM_LENGTH} characters.`);

  const responseMode = params.get('response_mode');
  if (responseMode !== null && responseMode !== 'fragment') return fail('invalid_request', 'Only response_mode "fragment" is supported.');
  const refused = UNSUPPORTED_PARAMETERS.filter((name) => params.has(name));
  if (refused.length) return fail('invalid_request', `Unsupported parameter: ${refused.join(', ')}.`);

  return {
    outcome: 'ok',
    request: { clientId, appName: app.name, redirectUri, responseType, scopes, nonce, ...(state !== undefined ? { state } : {}) },
  };
}

/** The redirect URI with the response in the fragment, encoded as application/x-www-form-urlencoded. */
export function fragmentRedirect(redirectUri: string, fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) params.set(name, value);
  return `${redirectUri}#${params.toString()}`;
}
