import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { authUrl, consent, randomNonce, runImplicitFlow, temporaryDataDir } from '../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7200/callback';

async function jwksKids(connectUrl: string): Promise<string[]> {
  const { keys } = (await (await fetch(`${connectUrl}/jwks`)).json()) as { keys: Array<{ kid: string }> };
  return keys.map((key) => key.kid);
}

describe('Sandbox persistence and key rotation', () => {
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  before(async () => {
    data = await temporaryDataDir();
  });
  after(() => data.remove());

  it('keeps apps, keys, tokens and sessions across a restart on the same data folder', async () => {
    let sandbox: RunningSandbox = await startSandbox({
      connectPort: 0,
      marketingPort: 0,
      dataDir: data.dir,
      demoOrigin: 'http://localhost:5999',
    });
    const port = Number(new URL(sandbox.connectUrl).port);
    const app = await sandbox.registerApp({ name: 'Survives restarts', redirectUris: [REDIRECT_URI] });
    const demoBefore = sandbox.demoApp;
    const kidsBefore = await jwksKids(sandbox.connectUrl);
    const browser = new TestBrowser();
    const params = () => ({
      client_id: app.app_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'id_token token',
      scope: 'openid profile',
      nonce: randomNonce(),
    });
    const { fragment } = await runImplicitFlow(browser, sandbox.connectUrl, params());
    await sandbox.close();

    // The same port again, so the browser's session cookie (named per port) still applies.
    sandbox = await startSandbox({
      connectPort: port,
      marketingPort: 0,
      dataDir: data.dir,
      demoOrigin: 'http://localhost:5999',
    });
    try {
      assert.deepEqual(await jwksKids(sandbox.connectUrl), kidsBefore);
      assert.deepEqual(sandbox.demoApp, demoBefore);
      const me = await fetch(`${sandbox.connectUrl}/me?access_token=${fragment.get('access_token')}`);
      assert.equal(me.status, 200);
      const page = await browser.get(authUrl(sandbox.connectUrl, params()));
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /Allow Survives restarts/, 'the app is still registered and the browser still signed in');
      await consent(browser, sandbox.connectUrl, html, 'allow');
    } finally {
      await sandbox.close();
    }
    for (const file of ['keys.json', 'apps.json', 'users.json', 'tokens.json', 'sessions.json']) {
      assert.equal(statSync(join(data.dir, file)).mode & 0o777, 0o600, file);
    }
  });

  it('seeds the demo app with the demo origin’s pages as redirect URIs', async () => {
    const sandbox = await startSandbox({
      connectPort: 0,
      marketingPort: 0,
      dataDir: data.dir,
      demoOrigin: 'http://localhost:6123',
    });
    try {
      assert.equal(sandbox.demoApp.app_id, 'loyalty-demo');
      assert.deepEqual(
        sandbox.demoApp.redirect_uris,
        ['/', '/index.html', '/callback.html', '/cms.html', '/theming.html', '/events.html'].map(
          (page) => `http://localhost:6123${page}`,
        ),
      );
    } finally {
      await sandbox.close();
    }
  });

  it('rotates in a new key that signs from then on, while the old one stays published', async () => {
    const sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: data.dir });
    try {
      const app = await sandbox.registerApp({ name: 'Rotation', redirectUris: [REDIRECT_URI] });
      const params = () => ({
        client_id: app.app_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'id_token token',
        scope: 'openid',
        nonce: randomNonce(),
      });
      const jwks = () => createRemoteJWKSet(new URL(`${sandbox.connectUrl}/jwks`));
      const before = (await runImplicitFlow(new TestBrowser(), sandbox.connectUrl, params())).fragment.get('id_token')!;
      const oldKid = decodeProtectedHeader(before).kid!;

      const newKid = await sandbox.addSigningKey();
      assert.notEqual(newKid, oldKid);
      assert.deepEqual((await jwksKids(sandbox.connectUrl)).sort(), [oldKid, newKid].sort());
      const after = (await runImplicitFlow(new TestBrowser(), sandbox.connectUrl, params())).fragment.get('id_token')!;
      assert.equal(decodeProtectedHeader(after).kid, newKid);
      await jwtVerify(after, jwks(), { issuer: sandbox.connectUrl, audience: app.app_id });
      await jwtVerify(before, jwks(), { issuer: sandbox.connectUrl, audience: app.app_id });

      // The CLI's add-key reaches a running sandbox through the data folder.
      const { code, stdout } = await runCli(['add-key', '--data-dir', data.dir]);
      assert.equal(code, 0);
      const { kid: cliKid } = JSON.parse(stdout) as { kid: string };
      assert.ok((await jwksKids(sandbox.connectUrl)).includes(cliKid));
      const latest = (await runImplicitFlow(new TestBrowser(), sandbox.connectUrl, params())).fragment.get('id_token')!;
      assert.equal(decodeProtectedHeader(latest).kid, cliKid);
    } finally {
      await sandbox.close();
    }
  });

  it('answers stats from the Marketing side and starts two sandboxes side by side', async () => {
    const other = await temporaryDataDir();
    const [a, b] = await Promise.all([
      startSandbox({ connectPort: 0, marketingPort: 0, dataDir: data.dir, apiKey: 'a' }),
      startSandbox({ connectPort: 0, marketingPort: 0, dataDir: other.dir, apiKey: 'b' }),
    ]);
    try {
      assert.notEqual(a.connectUrl, b.connectUrl);
      assert.notEqual(a.marketingUrl, b.marketingUrl);
      await fetch(a.marketingUrl, {
        method: 'POST',
        headers: { 'x-api-key': 'a', 'content-type': 'application/json' },
        body: '{"query":"{ campaigns { nextToken } }"}',
      });
      assert.deepEqual(a.stats(), {
        couponsMinted: 0,
        graphqlRequests: 1,
        byOperation: { campaigns: 1 },
        rowsRead: 0,
      });
      assert.equal(b.stats().graphqlRequests, 0);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await other.remove();
    }
  });
});
