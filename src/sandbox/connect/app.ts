/**
 * Connect over HTTP: discovery, JWKS, the authorization endpoint with its sign-in and consent
 * pages, and /me. Every form post carries a CSRF token bound to the browser's session cookie.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { KeyRing } from '../keys.ts';
import type { AppRegistry } from './apps.ts';
import { checkAuthRequest, fragmentRedirect, SUPPORTED_SCOPES, type AuthRequest } from './authorize.ts';
import { consentPage, errorPage, homePage, signInPage } from './pages.ts';
import { sameSecret } from '../crypto.ts';
import { BrowserSessions, PendingRequests, SESSION_COOKIE, type BrowserSession } from './sessions.ts';
import { SANDBOX_CSS } from './styles.ts';
import { signIdToken, type AccessTokens } from './tokens.ts';
import type { UserDirectory } from './users.ts';

export interface ConnectDeps {
  keys: KeyRing;
  apps: AppRegistry;
  users: UserDirectory;
  tokens: AccessTokens;
  sessions: BrowserSessions;
  tokenLifetimeSeconds: number;
}

export interface ConnectServer {
  app: Hono;
  /** Set once the port is bound: the issuer and the base of every endpoint. */
  setIssuer(issuer: string): void;
}

type Form = Record<string, string | File>;

function field(form: Form, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
}

export function createConnectApp(deps: ConnectDeps): ConnectServer {
  const { keys, apps, users, tokens, sessions } = deps;
  const pending = new PendingRequests();
  let issuer = '';
  // Cookies ignore ports, so two sandboxes on one host would otherwise overwrite each other's session.
  let cookieName = SESSION_COOKIE;
  const app = new Hono();

  const sendPage = (c: Context, body: string, status: 200 | 400 | 401 | 403 | 413, request?: AuthRequest) => {
    // A form post answered by a redirect to the app is governed by form-action, so the app's origin is allowed too.
    const formAction = request ? `'self' ${new URL(request.redirectUri).origin}` : `'self'`;
    c.header('Content-Security-Policy', `default-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'; object-src 'none'`);
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', 'no-store');
    return c.html(body, status);
  };
  const redirect = (c: Context, location: string, status: 302 | 303) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(location, status);
  };
  const startSession = (c: Context, user?: { sub: string; authTime: number }): BrowserSession => {
    const session = sessions.create(user);
    setCookie(c, cookieName, session.id, { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 8 * 60 * 60 });
    return session;
  };
  const currentSession = (c: Context) => sessions.get(getCookie(c, cookieName));
  const signedInUser = (session: BrowserSession | undefined) => (session?.sub ? users.bySub(session.sub) : undefined);
  const expiredPage = (c: Context) =>
    sendPage(c, errorPage('This sign-in has expired', 'The sign-in request is unknown, too old, or was started in another browser.'), 400);

  /** Parses a form post and checks its CSRF token against the session cookie; a Response when refused. */
  const readForm = async (c: Context): Promise<{ form: Form; session: BrowserSession } | Response> => {
    const form = (await c.req.parseBody()) as Form;
    const session = currentSession(c);
    if (!session || !sameSecret(field(form, 'csrf'), session.csrf)) {
      return sendPage(c, errorPage('Request refused', 'This form was not sent from this sandbox page (the security token is missing or wrong). Reload the page and try again.'), 403);
    }
    return { form, session };
  };

  const withCors = cors({ origin: '*', allowMethods: ['GET', 'OPTIONS'], allowHeaders: ['Authorization'], exposeHeaders: ['WWW-Authenticate'], maxAge: 600 });
  app.use('/.well-known/openid-configuration', withCors);
  app.use('/jwks', withCors);
  app.use('/me', withCors);
  app.use('*', bodyLimit({ maxSize: 16 * 1024, onError: (c) => sendPage(c, errorPage('Request too large', 'The form data is too large.'), 413) }));

  app.get('/.well-known/openid-configuration', (c) =>
    c.json({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      jwks_uri: `${issuer}/jwks`,
      userinfo_endpoint: `${issuer}/me`,
      response_types_supported: ['id_token token', 'id_token'],
      response_modes_supported: ['fragment'],
      grant_types_supported: ['implicit'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: [...SUPPORTED_SCOPES],
      claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'username', 'loyaltyId'],
    }),
  );
  app.get('/jwks', (c) => {
    c.header('Cache-Control', 'public, max-age=60');
    return c.json(keys.jwks(), 200, { 'Content-Type': 'application/jwk-set+json' });
  });
  app.get('/assets/sandbox.css', (c) => c.body(SANDBOX_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }));

  app.get('/favicon.ico', (c) => c.body(null, 204, { 'Cache-Control': 'public, max-age=86400' }));

  app.get('/auth', (c) => {
    const check = checkAuthRequest(new URL(c.req.url).searchParams, apps);
    if (check.outcome === 'page') return sendPage(c, errorPage('This sign-in link is not valid', check.message), 400);
    if (check.outcome === 'redirect') {
      return redirect(c, fragmentRedirect(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }), 302);
    }
    const session = currentSession(c) ?? startSession(c);
    const requestId = pending.add(check.request, session);
    const user = signedInUser(session);
    return user
      ? sendPage(c, consentPage({ requestId, csrf: session.csrf, request: check.request, user }), 200, check.request)
      : sendPage(c, signInPage({ requestId, csrf: session.csrf, appName: check.request.appName }), 200, check.request);
  });

  app.post('/signin', async (c) => {
    const read = await readForm(c);
    if (read instanceof Response) return read;
    const { form, session } = read;
    const requestId = field(form, 'request') ?? '';
    const request = pending.get(requestId, session);
    if (!request) return expiredPage(c);
    const username = field(form, 'username') ?? '';
    const user = users.authenticate(username, field(form, 'password') ?? '');
    if (!user) {
      const error = username.trim() ? 'The username or password is not right.' : 'Enter your username and password.';
      return sendPage(c, signInPage({ requestId, csrf: session.csrf, appName: request.appName, username, error }), 401, request);
    }
    // A new session id at sign-in, so an id planted before it (session fixation) is worth nothing.
    sessions.destroy(session.id);
    pending.rebind(requestId, startSession(c, { sub: user.sub, authTime: Math.floor(Date.now() / 1000) }));
    return redirect(c, `/consent?request=${encodeURIComponent(requestId)}`, 303);
  });

  app.get('/consent', (c) => {
    const session = currentSession(c);
    const requestId = c.req.query('request') ?? '';
    const request = session && pending.get(requestId, session);
    if (!session || !request) return expiredPage(c);
    const user = signedInUser(session);
    return user
      ? sendPage(c, consentPage({ requestId, csrf: session.csrf, request, user }), 200, request)
      : sendPage(c, signInPage({ requestId, csrf: session.csrf, appName: request.appName }), 200, request);
  });

  app.post('/consent', async (c) => {
    const read = await readForm(c);
    if (read instanceof Response) return read;
    const { form, session } = read;
    const decision = field(form, 'decision');
    if (decision !== 'allow' && decision !== 'cancel') return sendPage(c, errorPage('Choose Allow or Cancel', 'The form did not say whether you allow access.'), 400);
    const user = signedInUser(session);
    const request = user ? pending.take(field(form, 'request') ?? '', session) : undefined;
    if (!user || !request) return expiredPage(c);
    if (decision === 'cancel') {
      const fields = { error: 'access_denied', error_description: 'The user cancelled the sign-in and shared nothing.', state: request.state };
      return redirect(c, fragmentRedirect(request.redirectUri, fields), 302);
    }
    const lifetime = deps.tokenLifetimeSeconds;
    const accessToken =
      request.responseType === 'id_token token'
        ? tokens.issue({ sub: user.sub, appId: request.clientId, scope: request.scopes, expiresAt: Date.now() + lifetime * 1000 })
        : undefined;
    const idToken = await signIdToken(keys, {
      issuer,
      sub: user.sub,
      audience: request.clientId,
      nonce: request.nonce,
      authTime: session.authTime ?? Math.floor(Date.now() / 1000),
      lifetimeSeconds: lifetime,
      accessToken,
    });
    const fields = accessToken
      ? { id_token: idToken, access_token: accessToken, token_type: 'Bearer', expires_in: String(lifetime), state: request.state }
      : { id_token: idToken, expires_in: String(lifetime), state: request.state };
    return redirect(c, fragmentRedirect(request.redirectUri, fields), 302);
  });

  app.post('/logout', async (c) => {
    const read = await readForm(c);
    if (read instanceof Response) return read;
    const { form, session } = read;
    const requestId = field(form, 'request');
    const request = requestId ? pending.get(requestId, session) : undefined;
    sessions.destroy(session.id);
    deleteCookie(c, cookieName, { path: '/' });
    if (requestId && request) {
      // Signing out in the middle of a sign-in goes back to the sign-in form for the same request.
      pending.rebind(requestId, startSession(c));
      return redirect(c, `/consent?request=${encodeURIComponent(requestId)}`, 303);
    }
    return redirect(c, '/', 303);
  });

  app.get('/', (c) => {
    const session = currentSession(c);
    return sendPage(c, homePage({ user: signedInUser(session), csrf: session?.csrf, issuer }), 200);
  });

  app.get('/me', (c) => {
    c.header('Cache-Control', 'no-store');
    const fromQuery = c.req.query('access_token');
    const authorization = c.req.header('Authorization');
    const fromHeader = authorization && /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (fromQuery && authorization) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_request"');
      return c.json({ error: 'invalid_request', error_description: 'Send the access token once: in the query or in the Authorization header, not both.' }, 400);
    }
    const token = fromQuery || fromHeader;
    const record = token ? tokens.lookup(token) : undefined;
    const user = record && users.bySub(record.sub);
    if (!record || !user) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      const description = token ? 'The access token is unknown or has expired.' : 'An access token is required (?access_token= or Authorization: Bearer).';
      return c.json({ error: 'invalid_token', error_description: description }, 401);
    }
    return c.json(record.scope.includes('profile') ? { sub: user.sub, username: user.username, loyaltyId: user.loyaltyId } : { sub: user.sub });
  });

  return {
    app,
    setIssuer(value) {
      issuer = value;
      cookieName = `${SESSION_COOKIE}_${new URL(value).port || '80'}`;
    },
  };
}
