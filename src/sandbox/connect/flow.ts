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

export function registerAuthorizationFlow(app: Hono, ctx: ConnectContext): void {
  const { users, sessions, pending, throttle } = ctx;

  const fragmentError = (c: Context, request: AuthRequest, error: string, description: string) =>
    redirectTo(
      c,
      fragmentRedirect(request.redirectUri, { error, error_description: description, state: request.state }),
      302,
    );

  const showSignIn = (
    c: Context,
    requestId: string,
    session: BrowserSession,
    request: AuthRequest,
    status: 200 | 401 | 429 = 200,
    typed?: { username: string; error: string },
  ) => {
    const hinted = request.hintSub ? users.bySub(request.hintSub)?.username : undefined;
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
  };

  /** Parses a form post and checks its CSRF token against the session cookie; a Response when refused. */
  const readForm = async (c: Context): Promise<{ form: Form; session: BrowserSession } | Response> => {
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
  };

  const authorize = async (c: Context, params: URLSearchParams) => {
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
    const requestId = pending.add(request, session);
    if (!user || needsSignIn(request, session, false)) return showSignIn(c, requestId, session, request);
    return sendPage(c, consentPage({ requestId, csrf: session.csrf, request, user }), 200, request);
  };

  app.get('/auth', (c) => authorize(c, new URL(c.req.url).searchParams));
  app.post('/auth', async (c) => {
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
    return authorize(c, new URLSearchParams(await c.req.text()));
  });

  app.post('/signin', async (c) => {
    const read = await readForm(c);
    if (read instanceof Response) return read;
    const { form, session } = read;
    const requestId = field(form, 'request') ?? '';
    const request = pending.get(requestId, session);
    if (!request) return expiredPage(c);
    const username = field(form, 'username') ?? '';
    const wait = throttle.retryAfter(username);
    if (wait) {
      c.header('Retry-After', String(wait));
      return showSignIn(c, requestId, session, request, 429, { username, error: tooManyAttempts(wait) });
    }
    const user = users.authenticate(username, field(form, 'password') ?? '');
    if (!user) {
      if (!username.trim())
        return showSignIn(c, requestId, session, request, 401, {
          username,
          error: 'Enter your username and password.',
        });
      if (throttle.fail(username)) {
        const seconds = throttle.retryAfter(username);
        c.header('Retry-After', String(seconds));
        return showSignIn(c, requestId, session, request, 429, { username, error: tooManyAttempts(seconds) });
      }
      return showSignIn(c, requestId, session, request, 401, {
        username,
        error: 'The username or password is not right.',
      });
    }
    throttle.succeed(username);
    // A new session id at sign-in, so an id planted before it (session fixation) is worth nothing.
    sessions.destroy(session.id);
    const consents = session.sub === user.sub ? session.consents : undefined;
    pending.rebind(
      requestId,
      ctx.startSession(c, { sub: user.sub, authTime: nowSeconds(), ...(consents ? { consents } : {}) }),
      true,
    );
    return redirectTo(c, `/consent?request=${encodeURIComponent(requestId)}`, 303);
  });

  app.get('/consent', (c) => {
    const session = ctx.currentSession(c);
    const requestId = c.req.query('request') ?? '';
    const request = session && pending.get(requestId, session);
    if (!session || !request) return expiredPage(c);
    const user = ctx.signedInUser(session);
    if (!user || needsSignIn(request, session, pending.signedInFor(requestId, session)))
      return showSignIn(c, requestId, session, request);
    return sendPage(c, consentPage({ requestId, csrf: session.csrf, request, user }), 200, request);
  });

  app.post('/consent', async (c) => {
    const read = await readForm(c);
    if (read instanceof Response) return read;
    const { form, session } = read;
    const decision = field(form, 'decision');
    if (decision !== 'allow' && decision !== 'cancel')
      return sendPage(c, errorPage('Choose Allow or Cancel', 'The form did not say whether you allow access.'), 400);
    const requestId = field(form, 'request') ?? '';
    const user = ctx.signedInUser(session);
    const pendingRequest = user ? pending.get(requestId, session) : undefined;
    if (!user || !pendingRequest) return expiredPage(c);
    // The consent form cannot stand in for a sign-in the request demands (prompt=login, max_age).
    if (needsSignIn(pendingRequest, session, pending.signedInFor(requestId, session)))
      return showSignIn(c, requestId, session, pendingRequest);
    const request = pending.take(requestId, session)!;
    if (decision === 'cancel')
      return fragmentError(c, request, 'access_denied', 'The user cancelled the sign-in and shared nothing.');
    sessions.rememberConsent(session, request.clientId, request.scopes);
    return redirectTo(
      c,
      await authorizationResponse(ctx, ctx.issuer(), request, user, session.authTime ?? nowSeconds()),
      302,
    );
  });

  app.post('/logout', async (c) => {
    const read = await readForm(c);
    if (read instanceof Response) return read;
    const { form, session } = read;
    const requestId = field(form, 'request');
    const request = requestId ? pending.get(requestId, session) : undefined;
    ctx.endSession(c, session);
    if (requestId && request) {
      // Signing out in the middle of a sign-in goes back to the sign-in form for the same request.
      pending.rebind(requestId, ctx.startSession(c), false);
      return redirectTo(c, `/consent?request=${encodeURIComponent(requestId)}`, 303);
    }
    return redirectTo(c, '/', 303);
  });
}
