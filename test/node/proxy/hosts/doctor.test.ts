/**
 * `loyalty-proxy doctor` as a child process against real upstreams (both sandbox flavours, a wrong key,
 * nothing listening, a page that is not GraphQL, an API lacking a built-in operation), the key never
 * printed; `diagnoseUpstream()` with a host's own operations; and the server refusing to start when
 * the key is refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startMarketing } from '../../../../src/sandbox/index.ts';
import { diagnoseUpstream } from '../../../../src/proxy/doctor.ts';
import { temporaryDataDir } from '../../support/connect.ts';
import { startFakeUpstream, startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';
import { AMPLIFY_SDL, SCHEMA_UPSTREAM_KEY, startSchemaUpstream } from '../../support/schema-upstream.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const doctor = (url: string, key: string) => runCli(['doctor'], { MARKETING_API_URL: url, MARKETING_API_KEY: key });

function assertNoKey(output: { stdout: string; stderr: string }, key: string): void {
  assert.ok(!output.stdout.includes(key) && !output.stderr.includes(key), 'the key is never printed');
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/graphql`;
}

describe('loyalty-proxy doctor', () => {
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.dispose());

  it('reports the default sandbox ready, with how documents are typed (exit 0)', async () => {
    const result = await doctor(upstream.marketingUrl, TEST_API_KEY);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /The key is accepted/);
    assert.match(result.stdout, /Introspection is available/);
    assert.match(result.stdout, /campaign\(id\) takes ID!: documents declare \$id: ID!/);
    assert.match(
      result.stdout,
      /campaigns filters by businessAccountId as filter: CampaignFilter \{ businessAccountId: StringFilter \{ eq: String \} \}/,
    );
    assert.match(result.stdout, /\[sample\] campaigns \{"limit":1\}: 1 item/);
    assert.match(result.stdout, /^Ready: /m);
    assert.doesNotMatch(result.stdout, /Cannot work/);
    assertNoKey(result, TEST_API_KEY);
  });

  it('reports the appsync flavour ready, adapted to its Model* types and to businessAccounts without a filter (exit 0)', async () => {
    const data = await temporaryDataDir();
    const appsync = await startMarketing({
      flavor: 'appsync',
      marketingPort: 0,
      dataDir: data.dir,
      apiKey: TEST_API_KEY,
    });
    try {
      const result = await doctor(appsync.marketingUrl, TEST_API_KEY);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(
        result.stdout,
        /filter: ModelCampaignFilterInput \{ businessAccountId: ModelIDInput \{ eq: ID \} \}/,
      );
      assert.match(
        result.stdout,
        /businessAccounts takes no filter: a call with category is refused \(400 unsupported_variable\)/,
      );
      assert.match(result.stdout, /requestCoupon\(campaignId\) takes ID!/);
      assert.match(result.stdout, /campaigns of one business account are read by a filtered scan of every campaign/);
      assert.doesNotMatch(result.stdout, /index query/);
      assertNoKey(result, TEST_API_KEY);
    } finally {
      await appsync.close();
      await data.remove();
    }
  });

  it("names the index query it reads one business account's campaigns with, when the schema has one", async () => {
    const appsync = await startMarketing({
      flavor: 'appsync',
      marketingPort: 0,
      apiKey: TEST_API_KEY,
      campaignIndex: true,
    });
    try {
      const diagnosis = await diagnoseUpstream({ upstreamUrl: appsync.marketingUrl, apiKey: TEST_API_KEY });
      assert.equal(diagnosis.ok, true);
      const said = diagnosis.findings
        .filter((finding) => finding.subject === 'campaigns')
        .map((finding) => finding.message);
      assert.ok(
        said.some((message) =>
          message.includes('read through the index query campaignsByBusinessAccountId(businessAccountId)'),
        ),
        said.join('\n'),
      );
      assert.ok(!said.some((message) => message.includes('filtered scan')), said.join('\n'));
    } finally {
      await appsync.close();
    }
  });

  it('says when introspection is off, and still checks the reads with literal documents (exit 0)', async () => {
    const data = await temporaryDataDir();
    const appsync = await startMarketing({
      flavor: 'appsync',
      marketingPort: 0,
      dataDir: data.dir,
      apiKey: TEST_API_KEY,
      introspection: false,
    });
    try {
      const result = await doctor(appsync.marketingUrl, TEST_API_KEY);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /Introspection is unavailable \(.*'__schema'.*\): documents carry literal values/);
      assert.match(result.stdout, /\[sample\] campaign \{"id":"[^"]+"\}: found/);
      assert.match(result.stdout, /requestCoupon is not tried/);
      assert.match(result.stdout, /^Ready as far as could be checked/m);
    } finally {
      await appsync.close();
      await data.remove();
    }
  });

  it('names a refused key as its own finding and never prints it (exit 1)', async () => {
    const wrongKey = 'da2-wrong-key-4242424242';
    const result = await doctor(upstream.marketingUrl, wrongKey);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /\[key\] The Marketing API refused MARKETING_API_KEY \(HTTP 401/);
    assert.match(result.stdout, /^Not ready: 1 blocking problem/m);
    assertNoKey(result, wrongKey);
    const echoing = await startFakeUpstream((req, res) => {
      const message = `Key ${String(req.headers['x-api-key'])} is not valid for this API`;
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errors: [{ errorType: 'UnauthorizedException', message }] }));
    });
    const prefixed = await startFakeUpstream((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          errors: [{ errorType: 'UnauthorizedException', message: 'UnauthorizedException: Invalid API key' }],
        }),
      );
    });
    try {
      const diagnosis = await diagnoseUpstream({ upstreamUrl: prefixed.url, apiKey: wrongKey });
      const key = diagnosis.findings.find((finding) => finding.subject === 'key')!.message;
      assert.match(key, /\(HTTP 401, UnauthorizedException: Invalid API key\)/);
      assert.doesNotMatch(key, /UnauthorizedException: UnauthorizedException/);
    } finally {
      await prefixed.close();
    }
    try {
      const echoed = await doctor(echoing.url, wrongKey);
      assert.equal(echoed.code, 1);
      assert.match(echoed.stdout, /HTTP 401, UnauthorizedException: Key \[redacted\] is not valid/);
      assertNoKey(echoed, wrongKey);
    } finally {
      await echoing.close();
    }
  });

  it('says when nothing answers, something that is not GraphQL, or a throttled key (exit 1)', async () => {
    const down = await doctor(await closedPortUrl(), TEST_API_KEY);
    assert.equal(down.code, 1);
    assert.match(down.stdout, /\[upstream\] The Marketing API cannot be reached \(ECONNREFUSED\)/);
    const html = await startFakeUpstream(
      (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
    );
    try {
      const page = await doctor(html.url, TEST_API_KEY);
      assert.equal(page.code, 1);
      assert.match(page.stdout, /answers HTTP 404 without GraphQL JSON/);
    } finally {
      await html.close();
    }
    const busy = await startFakeUpstream((_req, res) => {
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end('{"errors":[{"errorType":"LimitExceededError","message":"Rate limit exceeded"}]}');
    });
    try {
      const throttled = await doctor(busy.url, TEST_API_KEY);
      assert.equal(throttled.code, 1);
      assert.match(throttled.stdout, /throttling this key \(HTTP 429\)/);
    } finally {
      await busy.close();
    }
  });

  it('fails on a built-in operation that cannot work against the schema (exit 1)', async () => {
    const noCoupons = await startSchemaUpstream(
      AMPLIFY_SDL.replace(/type Mutation \{[^}]*\}/, 'type Mutation { ping: String }').replace(
        'title: String!',
        'heading: String!',
      ),
    );
    try {
      const result = await doctor(noCoupons.url, SCHEMA_UPSTREAM_KEY);
      assert.equal(result.code, 1);
      assert.match(result.stdout, /\[requestCoupon\] Mutation\.requestCoupon does not exist/);
      assert.match(result.stdout, /\[campaign\] CampaignContent\.title does not exist/);
      assert.match(result.stdout, /\[businessAccounts\] businessAccounts fits the schema/);
      assert.match(result.stdout, /Not ready: \d+ blocking problems/);
    } finally {
      await noCoupons.close();
    }
  });
});

describe('diagnoseUpstream()', () => {
  it("checks a host's own operations field by field and argument by argument", async () => {
    const amplify = await startSchemaUpstream(AMPLIFY_SDL);
    try {
      const diagnosis = await diagnoseUpstream({
        upstreamUrl: amplify.url,
        apiKey: SCHEMA_UPSTREAM_KEY,
        operations: {
          campaignTitle: {
            kind: 'query',
            variables: { id: { type: 'string', required: true } },
            document: 'query campaignTitle($id: ID!) { campaign(id: $id) { content { title } } }',
          },
          campaignTags: {
            kind: 'query',
            variables: { id: { type: 'string', required: true } },
            document: 'query campaignTags($id: String!) { campaign(id: $id) { tags } }',
          },
        },
      });
      assert.equal(diagnosis.ok, false);
      assert.equal(diagnosis.introspection, 'available');
      const about = (subject: string) => diagnosis.findings.filter((finding) => finding.subject === subject);
      assert.deepEqual(
        about('campaignTitle').map((finding) => finding.level),
        ['works'],
      );
      const tags = about('campaignTags');
      assert.ok(tags.every((finding) => finding.level === 'cannot' && finding.blocking));
      assert.ok(tags.some((finding) => /Cannot query field "tags"/.test(finding.message)));
      assert.ok(
        tags.some((finding) => /"\$id" of type "String!" used in position expecting type "ID!"/.test(finding.message)),
      );
    } finally {
      await amplify.close();
    }
  });
});

describe('loyalty-proxy (server) with a refused key', () => {
  it('does not start, and says why in one line without the key (exit 1)', async () => {
    const upstream = await startUpstream();
    const wrongKey = 'da2-wrong-key-5151515151';
    const start = (url: string) =>
      runCli([], { MARKETING_API_URL: url, MARKETING_API_KEY: wrongKey, PORT: '0', HOST: '127.0.0.1' });
    const echoing = await startFakeUpstream((req, res) => {
      const message = `Key ${String(req.headers['x-api-key'])} is not valid for this API`;
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errors: [{ errorType: 'UnauthorizedException', message }] }));
    });
    try {
      const result = await start(upstream.marketingUrl);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        /^loyalty-proxy: cannot start: the Marketing API refused MARKETING_API_KEY \(HTTP 401, Invalid API key\)/m,
      );
      assert.doesNotMatch(result.stderr, /listening/);
      assertNoKey(result, wrongKey);
      const echoed = await start(echoing.url);
      assert.equal(echoed.code, 1);
      assert.match(echoed.stderr, /HTTP 401, UnauthorizedException: Key \[redacted\] is not valid/);
      assertNoKey(echoed, wrongKey);
    } finally {
      await upstream.dispose();
      await echoing.close();
    }
  });
});
