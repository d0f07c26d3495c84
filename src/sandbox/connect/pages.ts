/**
 * The provider's pages: plain HTML forms that work without JavaScript, one stylesheet from the
 * server (no inline style or script, so a strict CSP holds), every value escaped.
 */
import { html } from 'hono/html';
import { htmlText, type HtmlFragment } from '../html.ts';
import type { AuthRequest } from './authorize.ts';
import { SEED_USERS, type WalletUser } from './users.ts';

function layout(title: string, body: HtmlFragment): string {
  return htmlText(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Loyalty Connect sandbox</title>
<link rel="stylesheet" href="/assets/sandbox.css">
</head>
<body>
<main>
<p class="brand">Loyalty Connect · sandbox</p>
${body}
</main>
</body>
</html>
`);
}

export function errorPage(heading: string, message: string): string {
  return layout(
    heading,
    html`<h1>${heading}</h1><p>${message}</p><p class="muted">Go back to the app and start again. If it keeps happening, the app's sign-in settings need fixing.</p>`,
  );
}

export interface SignInPageInput {
  requestId: string;
  csrf: string;
  appName: string;
  username?: string;
  error?: string;
}

export function signInPage(input: SignInPageInput): string {
  const errorId = input.error ? 'signin-error' : undefined;
  const users = SEED_USERS.map((user) => html`<li><code>${user.username}</code> / <code>${user.password}</code></li>`);
  return layout(
    'Sign in',
    html`<h1>Sign in to continue to ${input.appName}</h1>
<p class="muted">Use your loyalty wallet account.</p>
<form method="post" action="/signin" novalidate>
<input type="hidden" name="request" value="${input.requestId}">
<input type="hidden" name="csrf" value="${input.csrf}">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${input.username ?? ''}"${input.error ? html` aria-invalid="true" aria-describedby="${errorId}"` : ''}${input.username ? '' : html` autofocus`}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${input.error ? html` aria-invalid="true" aria-describedby="${errorId}" autofocus` : ''}>
${input.error ? html`<p class="error" id="signin-error" role="alert">${input.error}</p>` : ''}
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<details><summary>Sandbox accounts</summary><ul>${users}</ul></details>`,
  );
}

export interface ConsentPageInput {
  requestId: string;
  csrf: string;
  request: AuthRequest;
  user: WalletUser;
}

export function consentPage({ requestId, csrf, request, user }: ConsentPageInput): string {
  const profile = request.scopes.includes('profile');
  const grants = profile
    ? html`<p>${request.appName} will receive:</p>
<ul class="grants"><li>your username: <code>${user.username}</code></li><li>your loyalty ID (wallet address): <code>${user.loyaltyId}</code></li></ul>
<p class="muted">It can use your loyalty ID to reward you.</p>`
    : html`<p>${request.appName} will receive only confirmation that you signed in, with an identifier for your account. It will not see your username or loyalty ID.</p>`;
  return layout(
    'Allow access',
    html`<h1>Allow ${request.appName} to know who you are?</h1>
${grants}
<p class="muted">Either way, you then go back to <code>${new URL(request.redirectUri).origin}</code>.</p>
<form method="post" action="/consent">
<input type="hidden" name="request" value="${requestId}">
<input type="hidden" name="csrf" value="${csrf}">
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
</div>
</form>
<form method="post" action="/logout" class="muted switch-account">
<input type="hidden" name="request" value="${requestId}">
<input type="hidden" name="csrf" value="${csrf}">
<p>Signed in as <strong>${user.username}</strong>. <button type="submit" class="link">Use another account</button></p>
</form>`,
  );
}

export function homePage(input: { user?: WalletUser; csrf?: string; issuer: string }): string {
  const signOut =
    input.user && input.csrf
      ? html`<form method="post" action="/logout"><input type="hidden" name="csrf" value="${input.csrf}">
<p>Signed in as <strong>${input.user.username}</strong>.</p><div class="actions"><button type="submit" class="secondary">Sign out of the sandbox</button></div></form>`
      : html`<p>You are not signed in.</p>`;
  return layout(
    'Connect sandbox',
    html`<h1>Loyalty Connect sandbox</h1>
<p>An OpenID Connect provider (implicit flow) for building against before you have production credentials.</p>
<p class="muted">Discovery: <code>${input.issuer}/.well-known/openid-configuration</code></p>
${signOut}`,
  );
}
