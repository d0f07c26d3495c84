/**
 * Connect over HTTP: discovery, JWKS, the authorization endpoint with its sign-in and consent pages
 * (flow.ts), and /me (userinfo.ts).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SUPPORTED_SCOPES } from './authorize.ts';
import type { ConnectContext, ConnectDeps } from './context.ts';
import { registerAuthorizationFlow } from './flow.ts';
import { errorPage, homePage } from './pages.ts';
import { DISPLAY_VALUES, PROMPT_VALUES, UI_LOCALES } from './request-params.ts';
import { PendingRequests, SESSION_COOKIE } from './sessions.ts';
import { SANDBOX_CSS } from './styles.ts';
import { SignInThrottle } from './throttle.ts';
import { registerUserinfo } from './userinfo.ts';
import { sendPage } from './web.ts';

export type { ConnectDeps } from './context.ts';

export interface ConnectServer {
  app: Hono;
  /** Set once the port is bound: the issuer and the base of every endpoint. */
  setIssuer(issuer: string): void;
}

/** Every claim Connect issues: in the ID token, or from /me (`username`, `loyaltyId` with `profile`). */
export const CLAIMS_SUPPORTED = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'username',
  'loyaltyId',
];

/** OpenID Connect Discovery 1.0 §3, listing only what this provider really does. */
export function discoveryDocument(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    jwks_uri: `${issuer}/jwks`,
    userinfo_endpoint: `${issuer}/me`,
    // No token endpoint: the implicit flow is all there is, so there is no client authentication either.
    response_types_supported: ['id_token token', 'id_token'],
    response_modes_supported: ['fragment'],
    grant_types_supported: ['implicit'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    scopes_supported: [...SUPPORTED_SCOPES],
    claims_supported: CLAIMS_SUPPORTED,
    claim_types_supported: ['normal'],
    prompt_values_supported: [...PROMPT_VALUES],
    display_values_supported: [...DISPLAY_VALUES],
    ui_locales_supported: [...UI_LOCALES],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}

/** Where the sandbox is reached, known once its port is bound. */
interface Binding {
  issuer: string;
  /** Cookies ignore ports, so two sandboxes on one host would otherwise overwrite each other's session. */
  cookieName: string;
}

export function createConnectApp(deps: ConnectDeps): ConnectServer {
  const binding: Binding = { issuer: '', cookieName: SESSION_COOKIE };
  const ctx = createConnectContext(deps, binding);
  const app = new Hono();
  registerProviderDocuments(app, ctx);
  registerAuthorizationFlow(app, ctx);
  registerUserinfo(app, ctx);
  app.get('/', (c) => {
    const session = ctx.currentSession(c);
    return sendPage(c, homePage({ user: ctx.signedInUser(session), csrf: session?.csrf, issuer: ctx.issuer() }), 200);
  });
  return {
    app,
    setIssuer(value) {
      binding.issuer = value;
      binding.cookieName = `${SESSION_COOKIE}_${new URL(value).port || '80'}`;
    },
  };
}

/** What every route shares: the stores, the issuer, and the browser session behind its cookie. */
function createConnectContext(deps: ConnectDeps, binding: Binding): ConnectContext {
  return {
    ...deps,
    pending: new PendingRequests(),
    throttle: new SignInThrottle(),
    issuer: () => binding.issuer,
    currentSession: (c) => deps.sessions.get(getCookie(c, binding.cookieName)),
    startSession(c: Context, user) {
      const session = deps.sessions.create(user);
      setCookie(c, binding.cookieName, session.id, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: 8 * 60 * 60,
      });
      return session;
    },
    endSession(c, session) {
      deps.sessions.destroy(session.id);
      deleteCookie(c, binding.cookieName, { path: '/' });
    },
    signedInUser: (session) => (session?.sub ? deps.users.bySub(session.sub) : undefined),
  };
}

/**
 * The body limit on every route, and what any client may read: discovery and keys (open to every
 * origin), the pages' stylesheet and icon.
 */
function registerProviderDocuments(app: Hono, ctx: ConnectContext): void {
  const withCors = cors({ origin: '*', allowMethods: ['GET', 'OPTIONS'], maxAge: 600 });
  app.use('/.well-known/openid-configuration', withCors);
  app.use('/jwks', withCors);
  app.use(
    '*',
    bodyLimit({
      maxSize: 16 * 1024,
      onError: (c) => sendPage(c, errorPage('Request too large', 'The form data is too large.'), 413),
    }),
  );

  app.get('/.well-known/openid-configuration', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(discoveryDocument(ctx.issuer()));
  });
  app.get('/jwks', (c) => {
    // Short, so a key added with `add-key` is seen soon; clients refetch anyway on an unknown kid.
    c.header('Cache-Control', 'public, max-age=60');
    return c.json(ctx.keys.jwks(), 200, { 'Content-Type': 'application/jwk-set+json' });
  });
  app.get('/assets/sandbox.css', (c) =>
    c.body(SANDBOX_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }),
  );
  app.get('/favicon.ico', (c) => c.body(null, 204, { 'Cache-Control': 'public, max-age=86400' }));
}
