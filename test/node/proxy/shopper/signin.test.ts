/**
 * requireSignin over real HTTP with the real sandbox: tokens from the real implicit flow (RS256 ID
 * tokens, opaque access tokens), checked like verifyShopper checks them, then minted upstream.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMarketingProxy } from '../../../../src/proxy/index.ts';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.ts';
import { temporaryDataDir } from '../../support/connect.ts';
import { post, serveProxy, TEST_API_KEY, type ProxyUnderTest } from '../../support/proxy-server.ts';
import { signedIn, signInAs, type SignedInTokens } from '../../support/shopper.ts';

const REDIRECT_URI = 'http://localhost:7100/callback';
const coupon = (campaignId = 'camp-harbor-morning-latte') => ({
  operation: 'requestCoupon',
  variables: { campaignId },
});
const generous = { perAddress: { limit: 10_000, windowSeconds: 60 }, perShopper: { limit: 10_000, windowSeconds: 60 } };

/** A fetch for the proxy that rewrites Connect's /me answers. */
function rewritingMe(connectUrl: string, rewrite: (profile: Record<string, unknown>) => unknown): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).startsWith(`${connectUrl}/me`) || !response.ok) return response;
    const profile = (await response.json()) as Record<string, unknown>;
    return new Response(JSON.stringify(rewrite(profile)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('Marketing proxy requireSignin', () => {
  let sandbox: RunningSandbox;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  let clientId: string;
  let otherAppId: string;
  let proxy: ProxyUnderTest;
  let meCalls: number;
  let demo: SignedInTokens;

  const signIn = (username: string, password: string, scope?: string, app = clientId) =>
    signInAs({ connectUrl: sandbox.connectUrl, clientId: app, redirectUri: REDIRECT_URI, username, password, scope });
  const countingMe: typeof fetch = (input, init) => {
    if (String(input).startsWith(`${sandbox.connectUrl}/me`)) meCalls += 1;
    return fetch(input, init);
  };

  before(async () => {
    data = await temporaryDataDir();
    sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: data.dir, apiKey: TEST_API_KEY });
    clientId = (await sandbox.registerApp({ name: 'Proxy tests', redirectUris: [REDIRECT_URI] })).app_id;
    otherAppId = (await sandbox.registerApp({ name: 'Another shop', redirectUris: [REDIRECT_URI] })).app_id;
    meCalls = 0;
    proxy = await serveProxy({
      upstreamUrl: sandbox.marketingUrl,
      connectUrl: sandbox.connectUrl,
      clientId,
      requireSignin: true,
      trustProxy: true,
      rateLimits: { perAddress: { limit: 100, windowSeconds: 60 }, perShopper: { limit: 3, windowSeconds: 60 } },
      fetch: countingMe,
    });
    demo = await signIn('demo', 'demo');
  });
  after(async () => {
    await proxy.close();
    await sandbox.close();
    await data.remove();
  });

  it('refuses a coupon request without a token (401 signin_required) and never mints', async () => {
    const minted = sandbox.stats().couponsMinted;
    const reply = await post(proxy.url, coupon());
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'signin_required');
    assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.equal(sandbox.stats().couponsMinted, minted);
  });

  it('refuses malformed, made-up or half-sent tokens (401 invalid_token) without asking /me', async () => {
    const callsBefore = meCalls;
    const attempts: Record<string, string>[] = [
      { authorization: 'Bearer not-a-real-token', 'x-loyalty-id-token': 'not.a.jwt' },
      { authorization: 'Basic ZGVtbzpkZW1v', 'x-loyalty-id-token': demo.idToken },
      { authorization: 'Bearer', 'x-loyalty-id-token': demo.idToken },
      { authorization: `Bearer ${demo.accessToken}` },
      { authorization: 'Bearer made-up-access-token', 'x-loyalty-id-token': demo.idToken },
    ];
    for (const headers of attempts) {
      const reply = await post(proxy.url, coupon(), headers);
      assert.equal(reply.status, 401, JSON.stringify(headers));
      assert.equal(reply.body.error.code, 'invalid_token');
    }
    assert.equal(meCalls, callsBefore, 'a token that fails the ID-token checks never reaches Connect');
  });

  it('refuses the tokens Connect issued to another app (the ID token audience binds them to this one)', async () => {
    const foreign = await signIn('demo', 'demo', 'openid profile', otherAppId);
    const minted = sandbox.stats().couponsMinted;
    const callsBefore = meCalls;
    const reply = await post(proxy.url, coupon(), signedIn(foreign, { 'idempotency-key': randomUUID() }));
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'invalid_token');
    assert.match(reply.body.error.message, /aud/);
    assert.equal(sandbox.stats().couponsMinted, minted);
    assert.equal(meCalls, callsBefore);
  });

  it("refuses one shopper's ID token sent with another's access token (at_hash)", async () => {
    const jonas = await signIn('jonas.weber', 'jonas');
    const reply = await post(proxy.url, coupon(), signedIn({ idToken: demo.idToken, accessToken: jonas.accessToken }));
    assert.equal(reply.status, 401);
    assert.match(reply.body.error.message, /at_hash/);
  });

  it('refuses a /me answer that does not name its subject, and one of another subject', async () => {
    for (const rewrite of [
      ({ sub: _sub, ...rest }: Record<string, unknown>) => rest,
      (profile: Record<string, unknown>) => ({ ...profile, sub: 'someone-else' }),
    ]) {
      const checked = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        connectUrl: sandbox.connectUrl,
        clientId,
        requireSignin: true,
        rateLimits: generous,
        fetch: rewritingMe(sandbox.connectUrl, rewrite),
      });
      try {
        const minted = sandbox.stats().couponsMinted;
        const reply = await post(checked.url, coupon(), signedIn(demo));
        assert.equal(reply.status, 401);
        assert.equal(reply.body.error.code, 'invalid_token');
        assert.equal(sandbox.stats().couponsMinted, minted);
      } finally {
        await checked.close();
      }
    }
  });

  it('refuses a token issued without the profile scope (no loyalty ID)', async () => {
    const tokens = await signIn('amelia.chen', 'amelia', 'openid');
    const reply = await post(proxy.url, coupon(), signedIn(tokens));
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'invalid_token');
    assert.match(reply.body.error.message, /profile scope/);
  });

  it('mints with real Connect tokens, asking /me once for many requests', async () => {
    const callsBefore = meCalls;
    const replies = await Promise.all(
      Array.from({ length: 3 }, () => post(proxy.url, coupon(), signedIn(demo, { 'idempotency-key': randomUUID() }))),
    );
    assert.deepEqual(
      replies.map((reply) => reply.status),
      [200, 200, 200],
    );
    assert.equal(meCalls - callsBefore, 1, '/me answers are cached (and concurrent checks shared)');
    const queries = await post(proxy.url, { operation: 'campaigns', variables: { limit: 1 } });
    assert.equal(queries.status, 200, 'queries need no sign-in');
  });

  it('keys the per-shopper limit on the loyalty ID, whatever the address', async () => {
    // demo used 3 of 3 above; from another address (trustProxy: X-Forwarded-For) it is still demo.
    const limited = await post(proxy.url, coupon(), signedIn(demo, { 'x-forwarded-for': '203.0.113.9' }));
    assert.equal(limited.status, 429);
    const jonas = await signIn('jonas.weber', 'jonas');
    assert.equal((await post(proxy.url, coupon(), signedIn(jonas, { 'x-forwarded-for': '203.0.113.9' }))).status, 200);
  });

  it('scopes Idempotency-Keys by shopper: another shopper cannot replay someone else’s coupon', async () => {
    const key = randomUUID();
    const sofia = await signIn('sofia.rossi', 'sofia');
    const amelia = await signIn('amelia.chen', 'amelia');
    const mine = await post(proxy.url, coupon('camp-peak-rental'), signedIn(sofia, { 'idempotency-key': key }));
    const theirs = await post(proxy.url, coupon('camp-peak-rental'), signedIn(amelia, { 'idempotency-key': key }));
    assert.equal(mine.status, 200);
    assert.equal(theirs.status, 200);
    assert.notEqual(theirs.body.data.requestCoupon.coupon.code, mine.body.data.requestCoupon.coupon.code);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
  });

  it('counts /me checks of tokens not seen lately per address, so many sign-ins cannot flood Connect', async () => {
    const strict = await serveProxy({
      upstreamUrl: sandbox.marketingUrl,
      connectUrl: sandbox.connectUrl,
      clientId,
      requireSignin: true,
      rateLimits: { perAddress: { limit: 2, windowSeconds: 60 }, perShopper: false },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await post(strict.url, coupon(), signedIn(await signIn('demo', 'demo')))).status);
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await strict.close();
    }
  });

  it('refuses an oversized /me answer (502 connect_unavailable) and mints nothing', async () => {
    const bloated = await serveProxy({
      upstreamUrl: sandbox.marketingUrl,
      connectUrl: sandbox.connectUrl,
      clientId,
      requireSignin: true,
      fetch: rewritingMe(sandbox.connectUrl, (profile) => ({ ...profile, padding: 'x'.repeat(1024 * 1024) })),
    });
    try {
      const minted = sandbox.stats().couponsMinted;
      const reply = await post(bloated.url, coupon(), signedIn(demo));
      assert.equal(reply.status, 502);
      assert.equal(reply.body.error.code, 'connect_unavailable');
      assert.equal(sandbox.stats().couponsMinted, minted);
    } finally {
      await bloated.close();
    }
  });

  it('refuses requireSignin without connectUrl or clientId when created', () => {
    const base = { upstreamUrl: sandbox.marketingUrl, apiKey: TEST_API_KEY };
    assert.throws(() => createMarketingProxy({ ...base, clientId, requireSignin: true }), /connectUrl/);
    assert.throws(
      () => createMarketingProxy({ ...base, clientId, requireSignin: ['camp-harbor-beans'] }),
      /connectUrl/,
    );
    assert.throws(
      () => createMarketingProxy({ ...base, connectUrl: sandbox.connectUrl, requireSignin: true }),
      /clientId/,
    );
    assert.throws(
      () =>
        createMarketingProxy({
          ...base,
          connectUrl: sandbox.connectUrl,
          clientId: ' ',
          requireSignin: ['camp-harbor-beans'],
        }),
      /clientId/,
    );
  });

  it('with a list of campaigns, needs sign-in for those only and leaves the others open', async () => {
    const members = await serveProxy({
      upstreamUrl: sandbox.marketingUrl,
      connectUrl: sandbox.connectUrl,
      clientId,
      requireSignin: ['camp-harbor-beans'],
      rateLimits: generous,
    });
    try {
      const minted = sandbox.stats().couponsMinted;
      const anonymous = await post(members.url, coupon('camp-harbor-beans'));
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'signin_required');
      assert.equal(
        (
          await post(members.url, coupon('camp-harbor-beans'), {
            authorization: 'Bearer made-up',
            'x-loyalty-id-token': 'made.up.jwt',
          })
        ).status,
        401,
      );
      for (const spelling of [' camp-harbor-beans', 'CAMP-Harbor-Beans', 'ｃａｍｐ-harbor-beans']) {
        assert.equal(
          (await post(members.url, coupon(spelling))).status,
          401,
          `${spelling} is the same campaign to the rule`,
        );
      }
      assert.equal(sandbox.stats().couponsMinted, minted, 'nothing minted for the members-only campaign');
      assert.equal((await post(members.url, coupon('camp-harbor-beans'), signedIn(demo))).status, 200);
      assert.equal(
        (await post(members.url, coupon('camp-harbor-morning-latte'))).status,
        200,
        'another campaign needs no sign-in',
      );
      assert.equal(sandbox.stats().couponsMinted, minted + 2);
    } finally {
      await members.close();
    }
  });

  it('refuses a requireSignin that is neither a flag nor a list of campaign ids', () => {
    for (const requireSignin of ['camp-harbor-beans', [''], [' camp-harbor-beans'], [42], {}]) {
      assert.throws(
        () =>
          createMarketingProxy({
            upstreamUrl: sandbox.marketingUrl,
            apiKey: TEST_API_KEY,
            connectUrl: sandbox.connectUrl,
            clientId,
            requireSignin: requireSignin as never,
          }),
        /requireSignin/,
        JSON.stringify(requireSignin),
      );
    }
  });
});
