/** Shared steps for the Connect sandbox tests: a temporary data folder and the sign-in flow. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { formFields, fragmentOf, type TestBrowser } from './browser.ts';

export async function temporaryDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-sandbox-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function randomNonce(): string {
  return randomBytes(24).toString('base64url');
}

export function authUrl(connectUrl: string, params: Record<string, string>): string {
  return `${connectUrl}/auth?${new URLSearchParams(params)}`;
}

export interface FlowOptions {
  username?: string;
  password?: string;
  decision?: 'allow' | 'cancel';
}

/** GET /auth, the sign-in form, the consent form; returns the final redirect's fragment. */
export async function runImplicitFlow(browser: TestBrowser, connectUrl: string, params: Record<string, string>, options: FlowOptions = {}) {
  const signInPage = await browser.get(authUrl(connectUrl, params));
  assert.equal(signInPage.status, 200);
  const signInHtml = await signInPage.text();
  assert.match(signInHtml, /<form method="post" action="\/signin"/);
  const signedIn = await browser.post(`${connectUrl}/signin`, {
    ...formFields(signInHtml, '/signin'),
    username: options.username ?? 'demo',
    password: options.password ?? 'demo',
  });
  assert.equal(signedIn.status, 303);
  const consentPage = await browser.follow(signedIn, connectUrl);
  assert.equal(consentPage.status, 200);
  return consent(browser, connectUrl, await consentPage.text(), options.decision ?? 'allow');
}

/** Submits the consent form found in `html`; returns the redirect and its fragment. */
export async function consent(browser: TestBrowser, connectUrl: string, html: string, decision: 'allow' | 'cancel') {
  const response = await browser.post(`${connectUrl}/consent`, { ...formFields(html, '/consent'), decision });
  assert.equal(response.status, 302, `consent answered ${response.status}: ${await response.clone().text()}`);
  return { response, location: response.headers.get('location')!, fragment: fragmentOf(response) };
}
