/**
 * The authorization endpoint (GET and POST /auth, as OpenID Connect Core §3.1.2.1 requires) and the
 * pages behind it: sign-in, consent, switching account. Every form post carries a CSRF token bound to
 * the browser's session cookie; the request it answers is kept on the server, bound to that session.
 */
import type { Context, Hono } from 'hono';
import { sameSecret } from '../crypto.ts';
import { checkAuthRequest, fragmentRedirect, type AuthRequest } from './authorize.ts';
import type { ConnectContext } from './context.ts';
import { authorizationResponse } from './issue.ts';
import { consentPage, errorPage, signInPage } from './pages.ts';
import { answerSilently, hintedSubject, needsSignIn, nowSeconds } from './prompt.ts';
import type { BrowserSession } from './sessions.ts';
import { expiredPage, redirectTo, sendPage } from './web.ts';

type Form = Record<string, string | File>;

function field(form: Form, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
}

const tooManyAttempts = (seconds: number) =>
  `Too many wrong passwords for this username. Wait ${seconds} seconds, then try again.`;

/** A sign-in request in progress: its id, the browser session it is bound to, and the request. */
interface Step {
  requestId: string;
  session: BrowserSession;
  request: AuthRequest;
}

/**
 * The authorization endpoint and the pages behind it, one handler per route: each reads what the
 * browser sent, checks it against the session and the pending request, and answers with a page or a
 * redirect.
 */
export function registerAuthorizationFlow(app: Hono, ctx: ConnectContext): void {
  app.get('/auth', (c) => authorize(c, ctx, new URL(c.req.url).searchParams));
  app.post('/auth', (c) => authorizeFormPost(c, ctx));
  app.post('/signin', (c) => signIn(c, ctx));
  app.get('/consent', (c) => showConsent(c, ctx));
  app.post('/consent', (c) => decideConsent(c, ctx));
  app.post('/logout', (c) => signOut(c, ctx));
}

/** An error for the app, in the redirect URI's fragment, as the implicit flow returns everything. */
function fragmentError(c: Context, request: AuthRequest, error: string, description: string) {
  return redirectTo(
    c,
    fragmentRedirect(request.redirectUri, { error, error_description: description, state: request.state }),
    302,
  );
}

function showSignIn(
  c: Context,
  ctx: ConnectContext,
  { requestId, session, request }: Step,
  status: 200 | 401 | 429 = 200,
  typed?: { username: string; error: string },
) {
  const hinted = request.hintSub ? ctx.users.bySub(request.hintSub)?.username : undefined;
  const username = typed?.username ?? request.loginHint ?? hinted;
  return sendPage(
    c,
    signInPage({
      requestId,
      csrf: session.csrf,
      appName: request.appName,
      ...(username ? { username } : {}),
      ...(typed ? { error: typed.error } : {}),
    }),
    status,
    request,
  );
}

/** Parses a form post and checks its CSRF token against the session cookie; a Response when refused. */
async function readForm(c: Context, ctx: ConnectContext): Promise<{ form: Form; session: BrowserSession } | Response> {
  const form = (await c.req.parseBody()) as Form;
  const session = ctx.currentSession(c);
  if (!session || !sameSecret(field(form, 'csrf'), session.csrf)) {
    return sendPage(
      c,
      errorPage(
        'Request refused',
        'This form was not sent from this sandbox page (the security token is missing or wrong). Reload the page and try again.',
      ),
      403,
    );
  }
  return { form, session };
}

/** GET and POST /auth: checks the request, then answers silently, or shows sign-in or consent. */
async function authorize(c: Context, ctx: ConnectContext, params: URLSearchParams) {
  const check = checkAuthRequest(params, ctx.apps);
  if (check.outcome === 'page') return sendPage(c, errorPage('This sign-in link is not valid', check.message), 400);
  if (check.outcome === 'redirect') {
    return redirectTo(
      c,
      fragmentRedirect(check.redirectUri, {
        error: check.error,
        error_description: check.description,
        state: check.state,
      }),
      302,
    );
  }
  let request = check.request;
  if (request.idTokenHint) {
    const hintSub = await hintedSubject(ctx.keys, ctx.issuer(), request.clientId, request.idTokenHint);
    if (!hintSub)
      return fragmentError(
        c,
        request,
        'invalid_request',
        'id_token_hint is not an ID token this provider issued to this app.',
      );
    request = { ...request, hintSub };
  }
  const existing = ctx.currentSession(c);
  const user = ctx.signedInUser(existing);
  if (request.prompt.includes('none')) {
    const answer = answerSilently(request, existing, Boolean(user));
    if (!answer.issue) return fragmentError(c, request, answer.error, answer.description);
    return redirectTo(c, await authorizationResponse(ctx, ctx.issuer(), request, user!, existing!.authTime!), 302);
  }
  const session = existing ?? ctx.startSession(c);
  const requestId = ctx.pending.add(request, session);
  if (!user || needsSignIn(request, session, false)) return showSignIn(c, ctx, { requestId, session, request });
  return sendPage(c, consentPage({ requestId, csrf: session.csrf, request, user }), 200, request);
}

/** POST /auth takes an HTML form's encoding only. */
async function authorizeFormPost(c: Context, ctx: ConnectContext) {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) {
    return sendPage(
      c,
      errorPage(
        'This sign-in request is not valid',
        'A sign-in request sent by POST must be an HTML form (application/x-www-form-urlencoded).',
      ),
      400,
    );
  }
  return authorize(c, ctx, new URLSearchParams(await c.req.text()));
}

/** POST /signin: the password form, throttled per username; success moves on to consent. */
async function signIn(c: Context, ctx: ConnectContext) {
  const read = await readForm(c, ctx);
  if (read instanceof Response) return read;
  const { form, session } = read;
  const requestId = field(form, 'request') ?? '';
  const request = ctx.pending.get(requestId, session);
  if (!request) return expiredPage(c);
  const step = { requestId, session, request };
  const username = field(form, 'username') ?? '';
  const wait = ctx.throttle.retryAfter(username);
  if (wait) {
    c.header('Retry-After', String(wait));
    return showSignIn(c, ctx, step, 429, { username, error: tooManyAttempts(wait) });
  }
  const user = ctx.users.authenticate(username, field(form, 'password') ?? '');
  if (!user) return refuseSignIn(c, ctx, step, username);
  ctx.throttle.succeed(username);
  // A new session id at sign-in, so an id planted before it (session fixation) is worth nothing.
  ctx.sessions.destroy(session.id);
  const consents = session.sub === user.sub ? session.consents : undefined;
  ctx.pending.rebind(
    requestId,
    ctx.startSession(c, { sub: user.sub, authTime: nowSeconds(), ...(consents ? { consents } : {}) }),
    true,
  );
  return redirectTo(c, `/consent?request=${encodeURIComponent(requestId)}`, 303);
}

/** The sign-in form again after a wrong password, counted towards the username's throttle. */
function refuseSignIn(c: Context, ctx: ConnectContext, step: Step, username: string) {
  if (!username.trim()) return showSignIn(c, ctx, step, 401, { username, error: 'Enter your username and password.' });
  if (ctx.throttle.fail(username)) {
    const seconds = ctx.throttle.retryAfter(username);
    c.header('Retry-After', String(seconds));
    return showSignIn(c, ctx, step, 429, { username, error: tooManyAttempts(seconds) });
  }
  return showSignIn(c, ctx, step, 401, { username, error: 'The username or password is not right.' });
}

/** GET /consent: the consent page of a pending request, or sign-in first when the request needs it. */
function showConsent(c: Context, ctx: ConnectContext) {
  const session = ctx.currentSession(c);
  const requestId = c.req.query('request') ?? '';
  const request = session && ctx.pending.get(requestId, session);
  if (!session || !request) return expiredPage(c);
  const user = ctx.signedInUser(session);
  if (!user || needsSignIn(request, session, ctx.pending.signedInFor(requestId, session)))
    return showSignIn(c, ctx, { requestId, session, request });
  return sendPage(c, consentPage({ requestId, csrf: session.csrf, request, user }), 200, request);
}

/** POST /consent: Allow issues the tokens to the app, Cancel returns access_denied. */
async function decideConsent(c: Context, ctx: ConnectContext) {
  const read = await readForm(c, ctx);
  if (read instanceof Response) return read;
  const { form, session } = read;
  const decision = field(form, 'decision');
  if (decision !== 'allow' && decision !== 'cancel')
    return sendPage(c, errorPage('Choose Allow or Cancel', 'The form did not say whether you allow access.'), 400);
  const requestId = field(form, 'request') ?? '';
  const user = ctx.signedInUser(session);
  const pendingRequest = user ? ctx.pending.get(requestId, session) : undefined;
  if (!user || !pendingRequest) return expiredPage(c);
  // The consent form cannot stand in for a sign-in the request demands (prompt=login, max_age).
  if (needsSignIn(pendingRequest, session, ctx.pending.signedInFor(requestId, session)))
    return showSignIn(c, ctx, { requestId, session, request: pendingRequest });
  const request = ctx.pending.take(requestId, session)!;
  if (decision === 'cancel')
    return fragmentError(c, request, 'access_denied', 'The user cancelled the sign-in and shared nothing.');
  ctx.sessions.rememberConsent(session, request.clientId, request.scopes);
  return redirectTo(
    c,
    await authorizationResponse(ctx, ctx.issuer(), request, user, session.authTime ?? nowSeconds()),
    302,
  );
}

/** POST /logout: ends the session; in the middle of a sign-in, back to its sign-in form. */
async function signOut(c: Context, ctx: ConnectContext) {
  const read = await readForm(c, ctx);
  if (read instanceof Response) return read;
  const { form, session } = read;
  const requestId = field(form, 'request');
  const request = requestId ? ctx.pending.get(requestId, session) : undefined;
  ctx.endSession(c, session);
  if (requestId && request) {
    // Signing out in the middle of a sign-in goes back to the sign-in form for the same request.
    ctx.pending.rebind(requestId, ctx.startSession(c), false);
    return redirectTo(c, `/consent?request=${encodeURIComponent(requestId)}`, 303);
  }
  return redirectTo(c, '/', 303);
}
