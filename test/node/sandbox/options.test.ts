import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startConnect, startMarketing, startSandbox } from '../../../src/sandbox/index.ts';
import { temporaryDataDir } from '../support/connect.ts';

describe('Sandbox options', () => {
  it('refuses ports and token lifetimes that make no sense, with a clear message', async () => {
    await assert.rejects(
      startMarketing({ marketingPort: 70000 }),
      /marketingPort must be an integer between 0 and 65535/,
    );
    await assert.rejects(startConnect({ connectPort: -1 }), /connectPort must be an integer/);
    await assert.rejects(
      startConnect({ connectPort: 0, tokenLifetimeSeconds: 0 }),
      /tokenLifetimeSeconds must be a positive whole number/,
    );
    await assert.rejects(startMarketing({ marketingPort: 0, apiKey: '' }), /API key must not be empty/);
    const data = await temporaryDataDir();
    await assert.rejects(
      startConnect({ connectPort: 0, dataDir: data.dir, demoOrigin: 'localhost:5173' }),
      /demoOrigin must be an http\(s\) origin/,
    );
    await data.remove();
  });

  it('reports a port in use and leaves nothing running', async () => {
    const data = await temporaryDataDir();
    const first = await startMarketing({ marketingPort: 0 });
    try {
      const port = Number(new URL(first.origin).port);
      await assert.rejects(startSandbox({ connectPort: 0, marketingPort: port, dataDir: data.dir }), {
        code: 'EADDRINUSE',
      });
    } finally {
      await first.close();
      await data.remove();
    }
  });

  it('refuses app registrations without a name or with unusable redirect URIs', async () => {
    const data = await temporaryDataDir();
    const connect = await startConnect({ connectPort: 0, dataDir: data.dir });
    try {
      await assert.rejects(connect.registerApp({ name: '', redirectUris: ['https://a.example/'] }), /needs a name/);
      await assert.rejects(connect.registerApp({ name: 'a', redirectUris: [] }), /at least one redirect URI/);
      await assert.rejects(connect.registerApp({ name: 'a', redirectUris: ['/relative'] }), /not an absolute URL/);
      await assert.rejects(connect.registerApp({ name: 'a', redirectUris: ['data:text/html,hi'] }), /http or https/);
      await assert.rejects(
        connect.registerApp({ name: 'a', redirectUris: ['https://user:pw@a.example/'] }),
        /credentials/,
      );
      const app = await connect.registerApp({
        name: '  Trimmed  ',
        redirectUris: ['https://a.example/', 'https://a.example/'],
      });
      assert.equal(app.name, 'Trimmed');
      assert.deepEqual(app.redirect_uris, ['https://a.example/']);
      assert.match(app.app_id, /^app_[0-9a-f]{16}$/);
    } finally {
      await connect.close();
      await data.remove();
    }
  });
});
