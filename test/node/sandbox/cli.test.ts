import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { startConnect, type AppRegistration } from '../../../src/sandbox/index.ts';
import { parseCommand, UsageError } from '../../../src/sandbox/cli.ts';
import { TestBrowser } from '../support/browser.ts';
import { runCli, spawnCli } from '../support/cli.ts';
import { authParams, authUrl, randomNonce, runImplicitFlow, temporaryDataDir } from '../support/connect.ts';
import { AppRegistry } from '../../../src/sandbox/connect/apps.ts';

describe('Sandbox CLI', () => {
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  before(async () => {
    data = await temporaryDataDir();
  });
  after(() => data.remove());

  it('register-app prints the registration as JSON and persists it for the server', async () => {
    const { code, stdout } = await runCli([
      'register-app',
      '--name',
      'Greenleaf online',
      '--redirect-uri',
      'http://localhost:7100/cb',
      '--redirect-uri',
      'https://greenleaf.example/cb',
      '--data-dir',
      data.dir,
    ]);
    assert.equal(code, 0);
    const app = JSON.parse(stdout) as AppRegistration;
    assert.deepEqual(Object.keys(app).sort(), ['app_id', 'app_secret', 'name', 'redirect_uris']);
    assert.equal(app.name, 'Greenleaf online');
    assert.deepEqual(app.redirect_uris, ['http://localhost:7100/cb', 'https://greenleaf.example/cb']);
    assert.ok(app.app_secret.length >= 32);

    const connect = await startConnect({ connectPort: 0, dataDir: data.dir });
    try {
      const query = {
        client_id: app.app_id,
        redirect_uri: 'https://greenleaf.example/cb',
        response_type: 'id_token token',
        scope: 'openid',
        nonce: randomNonce(),
      };
      const page = await new TestBrowser().get(authUrl(connect.connectUrl, query));
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Sign in to continue to Greenleaf online/);
    } finally {
      await connect.close();
    }
  });

  it('refuses bad arguments with a clear message and exit code 2', async () => {
    for (const args of [['register-app', '--name', 'x'], ['launch']]) {
      const { code, stderr, stdout } = await runCli([...args, '--data-dir', data.dir]);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, /Usage: npm run sandbox/);
      assert.equal(stdout, '');
    }
  });

  it('says what is wrong with each bad command line', () => {
    const cases: Array<[string[], RegExp]> = [
      [['register-app', '--name', 'x'], /--redirect-uri/],
      [['register-app', '--redirect-uri', 'http://localhost/cb'], /--name/],
      [['register-app', '--name', 'x', '--redirect-uri', 'not a url'], /not an absolute URL/],
      [['register-app', '--name', 'x', '--redirect-uri', 'javascript:alert(1)'], /http or https/],
      [['register-app', '--name', 'x', '--redirect-uri', 'http://localhost/cb#x'], /fragment/],
      [['register-app', '--name', '   ', '--redirect-uri', 'http://localhost/cb'], /needs a name/],
      [['launch'], /Unknown command: launch/],
      [['serve', 'now'], /Unexpected argument: now/],
      [['--port', '1'], /Unknown option '--port'/],
      [['--data-dir'], /--data-dir/],
      [['add-key', '--name', 'x'], /belong to register-app/],
      [['--flavor', 'apollo'], /--flavor must be one of default, appsync/],
      [['add-key', '--flavor', 'appsync'], /--flavor belongs to serve/],
      [['--token-lifetime', '0'], /--token-lifetime must be a positive whole number of seconds, got "0"/],
      [['--token-lifetime', '30s'], /--token-lifetime must be a positive whole number/],
      [['--token-lifetime', '1e3'], /--token-lifetime must be a positive whole number/],
      [['--token-lifetime', '-5'], /--token-lifetime/],
      [['add-key', '--token-lifetime', '30'], /--token-lifetime belongs to serve/],
    ];
    for (const [args, message] of cases)
      assert.throws(
        () => parseCommand(args),
        (error: Error) => error instanceof UsageError && message.test(error.message),
        args.join(' '),
      );
    assert.deepEqual(parseCommand(['--data-dir', data.dir]), { kind: 'serve', dataDir: data.dir });
    assert.deepEqual(parseCommand(['add-key', '--data-dir', data.dir]), { kind: 'add-key', dataDir: data.dir });
    assert.deepEqual(parseCommand(['serve', '--flavor', 'appsync', '--data-dir', data.dir]), {
      kind: 'serve',
      dataDir: data.dir,
      flavor: 'appsync',
    });
    assert.deepEqual(parseCommand(['--token-lifetime', '30', '--data-dir', data.dir]), {
      kind: 'serve',
      dataDir: data.dir,
      tokenLifetimeSeconds: 30,
    });
  });

  it('prints help', async () => {
    const { code, stdout } = await runCli(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /register-app/);
    assert.match(stdout, /add-key/);
  });

  /** Runs `serve` and waits for its banner. */
  async function serve(args: string[], env: Record<string, string> = {}) {
    const child = spawnCli(['--data-dir', data.dir, ...args], {
      CONNECT_PORT: '0',
      MARKETING_PORT: '0',
      SANDBOX_API_KEY: 'cli-key',
      ...env,
    });
    let stdout = '';
    while (!/Press Ctrl\+C/.test(stdout)) {
      const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
      stdout += chunk.toString();
    }
    return { child, stdout };
  }

  it('serves both services on the configured ports and stops on SIGTERM', async () => {
    const { child, stdout } = await serve([]);
    try {
      const connectUrl = /Connect \(OpenID issuer\)\s+(\S+)/.exec(stdout)![1]!;
      const marketingUrl = /Marketing GraphQL\s+(\S+)/.exec(stdout)![1]!;
      assert.match(stdout, /Marketing API key\s+cli-key/);
      assert.match(stdout, /Demo app client_id\s+loyalty-demo/);
      assert.match(stdout, /demo \/ demo/);
      const discovery = (await (await fetch(`${connectUrl}/.well-known/openid-configuration`)).json()) as {
        issuer: string;
      };
      assert.equal(discovery.issuer, connectUrl);
      const graphql = await fetch(marketingUrl, {
        method: 'POST',
        headers: { 'x-api-key': 'cli-key', 'content-type': 'application/json' },
        body: '{"query":"{ campaign(id: \\"camp-peak-rental\\") { id } }"}',
      });
      assert.deepEqual(await graphql.json(), { data: { campaign: { id: 'camp-peak-rental' } } });
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      assert.deepEqual(await closed, [0, null]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('serves the appsync flavour with --flavor appsync', async () => {
    const { child, stdout } = await serve(['--flavor', 'appsync']);
    try {
      const marketingUrl = /Marketing GraphQL\s+(\S+) \(appsync flavour\)/.exec(stdout)![1]!;
      const graphql = await fetch(marketingUrl, {
        method: 'POST',
        headers: { 'x-api-key': 'cli-key', 'content-type': 'application/json' },
        body: '{"query":"{ campaigns(limit: 1) { __typename } }"}',
      });
      assert.deepEqual(await graphql.json(), { data: { campaigns: { __typename: 'ModelCampaignConnection' } } });
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });

  /** Signs the demo shopper in to the serving sandbox's demo app and returns the tokens' expires_in. */
  async function issuedLifetime(stdout: string): Promise<string | null> {
    const connectUrl = /Connect \(OpenID issuer\)\s+(\S+)/.exec(stdout)![1]!;
    const app = new AppRegistry(data.dir).find('loyalty-demo')!;
    const { fragment } = await runImplicitFlow(new TestBrowser(), connectUrl, authParams(app));
    return fragment.get('expires_in');
  }

  for (const [how, args, env] of [
    ['--token-lifetime', ['--token-lifetime', '30'], { SANDBOX_TOKEN_LIFETIME: '600' }],
    ['SANDBOX_TOKEN_LIFETIME', [], { SANDBOX_TOKEN_LIFETIME: '30' }],
  ] as const) {
    it(`issues tokens that last as long as ${how} says`, async () => {
      const { child, stdout } = await serve([...args], env);
      try {
        assert.match(stdout, /Token lifetime\s+30 s/);
        assert.equal(await issuedLifetime(stdout), '30');
      } finally {
        child.kill('SIGTERM');
        await once(child, 'close');
      }
    });
  }

  it('refuses a SANDBOX_TOKEN_LIFETIME that is not whole seconds, before serving anything', async () => {
    const { code, stderr, stdout } = await runCli(['--data-dir', data.dir], {
      CONNECT_PORT: '0',
      MARKETING_PORT: '0',
      SANDBOX_TOKEN_LIFETIME: 'half an hour',
    });
    assert.equal(code, 1);
    assert.match(stderr, /SANDBOX_TOKEN_LIFETIME must be a positive whole number of seconds, got "half an hour"/);
    assert.doesNotMatch(stdout, /is running/);
  });
});
