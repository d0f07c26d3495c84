/**
 * /me, the UserInfo endpoint (OpenID Connect Core §5.3, RFC 6750): GET or POST, the access token in
 * exactly one place, `?access_token=`, `Authorization: Bearer`, or a form-encoded POST body.
 */
import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { ConnectContext } from './context.ts';

/** RFC 6750 §2.1: the b64token syntax. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

type TokenSource = { token: string } | { error: string };

/** Finds the access token; an error when it is sent more than once or the Bearer header is malformed. */
async function accessTokenOf(c: Context): Promise<TokenSource | undefined> {
  const found: string[] = new URL(c.req.url).searchParams.getAll('access_token');
  const authorization = c.req.header('Authorization');
  if (authorization !== undefined && /^Bearer(\s|$)/i.test(authorization)) {
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return { error: 'The Authorization header is not a well-formed Bearer token.' };
    found.push(token);
  }
  if (c.req.method === 'POST' && /^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) {
    found.push(...new URLSearchParams(await c.req.text()).getAll('access_token'));
  }
  if (found.length > 1)
    return {
      error: 'Send the access token once: in the query, the Authorization header or the form body, not in several.',
    };
  return found.length ? { token: found[0]! } : undefined;
}

export function registerUserinfo(app: Hono, ctx: ConnectContext): void {
  app.use(
    '/me',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type'],
      exposeHeaders: ['WWW-Authenticate'],
      maxAge: 600,
    }),
  );

  app.on(['GET', 'POST'], '/me', async (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Pragma', 'no-cache');
    const source = await accessTokenOf(c);
    if (source && 'error' in source) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_request"');
      return c.json({ error: 'invalid_request', error_description: source.error }, 400);
    }
    const record = source?.token ? ctx.tokens.lookup(source.token) : undefined;
    const user = record && ctx.users.bySub(record.sub);
    if (!record || !user) {
      c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      const description = source?.token
        ? 'The access token is unknown or has expired.'
        : 'An access token is required (Authorization: Bearer, or access_token).';
      return c.json({ error: 'invalid_token', error_description: description }, 401);
    }
    return c.json(
      record.scope.includes('profile')
        ? { sub: user.sub, username: user.username, loyaltyId: user.loyaltyId }
        : { sub: user.sub },
    );
  });

  app.all('/me', (c) => {
    c.header('Allow', 'GET, POST, OPTIONS');
    return c.json({ error: 'invalid_request', error_description: 'Use GET or POST.' }, 405);
  });
}
