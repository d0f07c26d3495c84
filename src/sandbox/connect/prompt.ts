/**
 * When the user must enter the password again, and what `prompt=none` answers. A session skips the
 * password unless the request says otherwise: `prompt=login` or `select_account`, `max_age` older than
 * the last password, or an `id_token_hint` for another user. Consent is asked on every interactive
 * request; `prompt=none` succeeds only when this browser session already allowed the app those scopes.
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { KeyRing } from '../keys.ts';
import type { AuthRequest } from './authorize.ts';
import type { BrowserSession } from './sessions.ts';

/** ID token hints are accepted long after they expire: they only name a user. */
const HINT_MAX_AGE_SECONDS = 10 * 365 * 24 * 60 * 60;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The subject of an ID token this provider issued to `clientId`, or undefined when it is not one. */
export async function hintedSubject(
  keys: KeyRing,
  issuer: string,
  clientId: string,
  hint: string,
): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(hint, createLocalJWKSet(keys.jwks()), {
      issuer,
      audience: clientId,
      algorithms: ['RS256'],
      clockTolerance: HINT_MAX_AGE_SECONDS,
    });
    return typeof payload.sub === 'string' ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}

/** `signedInHere`: the password was entered for this very request, which satisfies every demand. */
export function needsSignIn(request: AuthRequest, session: BrowserSession, signedInHere: boolean): boolean {
  if (!session.sub || session.authTime === undefined) return true;
  if (signedInHere) return false;
  if (request.prompt.includes('login') || request.prompt.includes('select_account')) return true;
  if (request.hintSub !== undefined && request.hintSub !== session.sub) return true;
  if (request.maxAge !== undefined && (request.maxAge === 0 || nowSeconds() - session.authTime > request.maxAge))
    return true;
  return false;
}

export type SilentAnswer =
  { issue: true } | { issue: false; error: 'login_required' | 'consent_required'; description: string };

/** `prompt=none`: tokens without any page, or the error that says which page would have been needed. */
export function answerSilently(
  request: AuthRequest,
  session: BrowserSession | undefined,
  signedIn: boolean,
): SilentAnswer {
  if (!session || !signedIn || needsSignIn(request, session, false)) {
    return {
      issue: false,
      error: 'login_required',
      description: 'The user must sign in, and prompt=none does not allow showing the sign-in page.',
    };
  }
  const granted = session.consents?.[request.clientId] ?? [];
  if (!request.scopes.every((scope) => granted.includes(scope))) {
    return {
      issue: false,
      error: 'consent_required',
      description:
        'The user has not allowed this app these scopes in this session, and prompt=none does not allow asking.',
    };
  }
  return { issue: true };
}
