/** How the provider answers a browser: hardened HTML pages and redirects that leak nothing. */
import type { Context } from 'hono';
import type { AuthRequest } from './authorize.ts';
import { errorPage } from './pages.ts';

export type PageStatus = 200 | 400 | 401 | 403 | 405 | 413 | 429;

/** An HTML page that no other site can frame, cache or learn the address of. */
export function sendPage(c: Context, body: string, status: PageStatus, request?: AuthRequest): Response {
  // A form post answered by a redirect to the app is governed by form-action, so the app's origin is allowed too.
  const formAction = request ? `'self' ${new URL(request.redirectUri).origin}` : `'self'`;
  c.header(
    'Content-Security-Policy',
    `default-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'; object-src 'none'`,
  );
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', 'no-store');
  return c.html(body, status);
}

export function redirectTo(c: Context, location: string, status: 302 | 303): Response {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(location, status);
}

export function expiredPage(c: Context): Response {
  return sendPage(
    c,
    errorPage(
      'This sign-in has expired',
      'The sign-in request is unknown, too old, or was started in another browser. Go back to the app and sign in again.',
    ),
    400,
  );
}

/** The page for a request Node refuses before the app sees it (see http.ts). */
export function oversizedPage(status: 414 | 431): string {
  return status === 414
    ? errorPage(
        'This sign-in link is too long',
        'The address is larger than the sandbox accepts (16 KiB). The app that sent you here puts too much into the link: a state or nonce of a few hundred characters is plenty.',
      )
    : errorPage(
        'Request too large',
        'The request headers (cookies included) are larger than the sandbox accepts (16 KiB).',
      );
}
