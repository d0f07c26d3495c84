/** Shared steps for the Connect sandbox tests: a temporary data folder and the sign-in flow. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startConnect, type AppRegistration, type RunningConnect } from '../../../src/sandbox/index.ts';
import type { SandboxOptions } from '../../../src/sandbox/options.ts';
import { formFields, fragmentOf, type TestBrowser } from './browser.ts';

export async function temporaryDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-sandbox-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A Connect sandbox on a free port and a fresh data folder, with one registered app, for a describe block. */
export function useConnect(redirectUris: string[], options: SandboxOptions = {}) {
  const state = {} as { connect: RunningConnect; app: AppRegistration; url: string };
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  before(async () => {
    data = await temporaryDataDir();
    state.connect = await startConnect({ connectPort: 0, dataDir: data.dir, ...options });
    state.url = state.connect.connectUrl;
    state.app = await state.connect.registerApp({ name: 'Test shop', redirectUris });
  });
  after(async () => {
    await state.connect.close();
    await data.remove();
  });
  return state;
}

/** The parameters of a valid request for `app`, with some replaced (undefined removes one). */
export function authParams(
  app: AppRegistration,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const all: Record<string, string | undefined> = {
    client_id: app.app_id,
    redirect_uri: app.redirect_uris[0],
    response_type: 'id_token token',
    scope: 'openid profile',
    nonce: randomNonce(),
    state: 'xyz',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
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
export async function runImplicitFlow(
  browser: TestBrowser,
  connectUrl: string,
  params: Record<string, string>,
  options: FlowOptions = {},
) {
  const signInPage = await browser.get(authUrl(connectUrl, params));
  assert.equal(signInPage.status, 200);
  const consentHtml = await signIn(browser, connectUrl, await signInPage.text(), options);
  return consent(browser, connectUrl, consentHtml, options.decision ?? 'allow');
}

/** Submits the sign-in form found in `html` (demo / demo unless told); returns the consent page's HTML. */
export async function signIn(
  browser: TestBrowser,
  connectUrl: string,
  html: string,
  options: FlowOptions = {},
): Promise<string> {
  assert.match(html, /<form method="post" action="\/signin"/);
  const signedIn = await browser.post(`${connectUrl}/signin`, {
    ...formFields(html, '/signin'),
    username: options.username ?? 'demo',
    password: options.password ?? 'demo',
  });
  assert.equal(signedIn.status, 303, `sign-in answered ${signedIn.status}`);
  const consentPage = await browser.follow(signedIn, connectUrl);
  assert.equal(consentPage.status, 200);
  return consentPage.text();
}

/** Submits the consent form found in `html`; returns the redirect and its fragment. */
export async function consent(browser: TestBrowser, connectUrl: string, html: string, decision: 'allow' | 'cancel') {
  const response = await browser.post(`${connectUrl}/consent`, { ...formFields(html, '/consent'), decision });
  assert.equal(response.status, 302, `consent answered ${response.status}: ${await response.clone().text()}`);
  return { response, location: response.headers.get('location')!, fragment: fragmentOf(response) };
}
