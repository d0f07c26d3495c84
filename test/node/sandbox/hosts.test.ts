/**
 * The sandbox answers only to this machine's names: a web page that points its own name at
 * 127.0.0.1 (DNS rebinding) sends its own Host, and gets nothing from Connect or Marketing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { temporaryDataDir } from '../support/connect.ts';
import { rawRequest } from '../support/raw-http.ts';

const get = (origin: string, path: string, host: string) =>
  rawRequest(origin, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close`, []);

describe('sandbox Host names', () => {
  let sandbox: RunningSandbox;
  let allowing: RunningSandbox;
  const folders: Awaited<ReturnType<typeof temporaryDataDir>>[] = [];

  before(async () => {
    folders.push(await temporaryDataDir(), await temporaryDataDir());
    sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: folders[0]!.dir });
    allowing = await startSandbox({
      connectPort: 0,
      marketingPort: 0,
      dataDir: folders[1]!.dir,
      allowedHosts: ['sandbox.test'],
    });
  });
  after(async () => {
    await Promise.all([sandbox.close(), allowing.close()]);
    await Promise.all(folders.map((folder) => folder.remove()));
  });

  it('refuses a request whose Host is another name (DNS rebinding), on Connect and Marketing', async () => {
    const marketing = new URL(sandbox.marketingUrl).origin;
    for (const [origin, path] of [
      [sandbox.connectUrl, '/.well-known/openid-configuration'],
      [sandbox.connectUrl, '/jwks'],
      [marketing, '/graphql'],
    ] as const) {
      const { port } = new URL(origin);
      for (const host of [
        `rebind.attacker.example:${port}`,
        'attacker.example',
        `127.0.0.1.attacker.example:${port}`,
      ]) {
        const reply = await get(origin, path, host);
        assert.equal(reply.status, 403, `${host} ${path}`);
        assert.match(reply.text, /SANDBOX_ALLOWED_HOSTS/);
      }
    }
  });

  it('answers to loopback names, and to names the developer allows', async () => {
    const { port } = new URL(sandbox.connectUrl);
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `shop.localhost:${port}`,
      'LOCALHOST',
    ]) {
      assert.equal((await get(sandbox.connectUrl, '/jwks', host)).status, 200, host);
    }
    const allowed = new URL(allowing.connectUrl).port;
    assert.equal((await get(allowing.connectUrl, '/jwks', `sandbox.test:${allowed}`)).status, 200);
    assert.equal((await get(allowing.connectUrl, '/jwks', `other.test:${allowed}`)).status, 403);
  });
});
