/**
 * One contract, two proxies: the same black-box cases over HTTP against the Node proxy and against
 * the WordPress plugin's REST route (Debian's WordPress 6.1, PHP 8.2 with 4 workers, MariaDB), each in
 * front of the real sandbox. What a widget sees must not tell them apart: operations and their
 * answers, pages and cursors, every refusal's code and status, origins, Idempotency-Key replays and
 * concurrency, members-only coupons with real RS256 ID tokens, a slow mint, the default rate limits,
 * and the key in no answer and no log line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signIdToken } from '../../src/sandbox/connect/tokens.ts';
import { KeyRing } from '../../src/sandbox/keys.ts';
import { signInAs, type SignedInTokens } from '../node/support/shopper.ts';
import { problemsIn } from '../wordpress/support/site.ts';
import { wordPressSkip } from '../wordpress/support/wordpress.ts';
import {
  CONTRACT_API_KEY,
  LISTED_ORIGIN,
  MEMBERS_CAMPAIGN,
  REDIRECT_URI,
  startNodeTarget,
  startWordPressTarget,
  TIMEOUT_MS,
  type ProxyTarget,
} from './support/targets.ts';

const wordpressSkip = wordPressSkip();
if (wordpressSkip) console.warn(`Skipping the WordPress target: ${wordpressSkip}`);

const COUPON_CAMPAIGN = 'camp-harbor-beans';
const VISIT_CAMPAIGN = 'camp-harbor-tenth-cup';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // The proxies' JSON, read field by field by the cases.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

interface CallOptions {
  headers?: Record<string, string>;
  /** The page's origin; default the proxy's own (a same-origin page). Null sends none. */
  origin?: string | null;
  method?: string;
  /** The raw body, instead of the call's JSON. */
  raw?: string;
  /** A query string for the endpoint (a read sent as GET). */
  query?: string;
}

const targets: Array<{ name: ProxyTarget['name']; start: () => Promise<ProxyTarget>; skip: boolean }> = [
  { name: 'node', start: startNodeTarget, skip: false },
  { name: 'wordpress', start: startWordPressTarget, skip: wordpressSkip !== false },
];

for (const { name, start, skip } of targets) {
  describe(`the Marketing proxy contract: ${name}`, { skip }, () => {
    let target: ProxyTarget;
    /** Every answer of the run, searched for the key at the end. */
    const answers: Answer[] = [];

    before(async () => {
      target = await start();
    });
    after(async () => {
      await target?.close();
    });

    async function call(
      operation: string | object,
      variables?: Record<string, unknown>,
      options: CallOptions = {},
    ): Promise<Answer> {
      const origin = options.origin === undefined ? target.origin : options.origin;
      const body = typeof operation === 'string' ? JSON.stringify({ operation, variables }) : JSON.stringify(operation);
      const url = options.query
        ? `${target.endpoint}${target.endpoint.includes('?') ? '&' : '?'}${options.query}`
        : target.endpoint;
      const response = await fetch(url, {
        method: options.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'contract-suite',
          ...(origin === null ? {} : { origin }),
          ...options.headers,
        },
        body: options.method === 'GET' || options.method === 'OPTIONS' ? undefined : (options.raw ?? body),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      const answer = { status: response.status, headers: response.headers, text, body: parsed };
      answers.push(answer);
      return answer;
    }
    const claim = (campaignId: string, headers: Record<string, string> = {}) =>
      call('requestCoupon', { campaignId }, { headers });
    const minted = () => target.sandbox.stats().couponsMinted;
    const refused = (answer: Answer, status: number, code: string, what: string) => {
      assert.equal(answer.status, status, `${what}: ${answer.text}`);
      assert.equal(answer.body?.error?.code, code, what);
      assert.equal(typeof answer.body.error.message, 'string', what);
    };

    test('each operation answers its documented shape', async () => {
      const campaigns = await call('campaigns', { limit: 3 });
      assert.equal(campaigns.status, 200, campaigns.text);
      assert.match(campaigns.headers.get('cache-control') ?? '', /^public, max-age=30, stale-while-revalidate=120$/);
      assert.equal(campaigns.headers.get('x-cache'), 'MISS');
      assert.equal(campaigns.body.data.campaigns.items.length, 3);
      for (const campaign of campaigns.body.data.campaigns.items) {
        assert.deepEqual(Object.keys(campaign), ['id', 'businessAccountId', 'content']);
        assert.deepEqual(Object.keys(campaign.content), [
          'title',
          'subtitle',
          'description',
          'img320',
          'img640',
          'img960',
          'img1280',
          'objective',
        ]);
      }
      assert.equal((await call('campaigns', { limit: 3 })).headers.get('x-cache'), 'HIT');

      const latte = await call('campaign', { id: MEMBERS_CAMPAIGN });
      assert.equal(latte.status, 200);
      assert.equal(latte.body.data.campaign.id, MEMBERS_CAMPAIGN);
      assert.deepEqual(latte.body.data.campaign.content.objective, { __typename: 'CouponObjective', price: '2.50' });
      assert.deepEqual((await call('campaign', { id: 'camp-nobody-has' })).body, { data: { campaign: null } });

      const harbor = await call('campaigns', { businessAccountId: 'biz-harbor-coffee', limit: 50 });
      assert.ok(harbor.body.data.campaigns.items.length > 1);
      for (const campaign of harbor.body.data.campaigns.items)
        assert.equal(campaign.businessAccountId, 'biz-harbor-coffee');

      const accounts = await call('businessAccounts', { limit: 50 });
      assert.equal(accounts.status, 200);
      const account = accounts.body.data.businessAccounts.items[0];
      assert.deepEqual(Object.keys(account), [
        'id',
        'name',
        'websiteUrl',
        'address',
        'description',
        'phoneNumber',
        'category',
        'logo',
        'pending',
        'customProperties',
      ]);
      const category = account.category as string;
      const sameCategory = await call('businessAccounts', { category });
      assert.ok(sameCategory.body.data.businessAccounts.items.length > 0);
      for (const item of sameCategory.body.data.businessAccounts.items) assert.equal(item.category, category);

      const before = minted();
      const coupon = await claim(COUPON_CAMPAIGN, { 'user-agent': 'shapes' });
      assert.equal(coupon.status, 200, coupon.text);
      assert.match(coupon.body.data.requestCoupon.coupon.code, /\S/);
      assert.deepEqual(Object.keys(coupon.body.data.requestCoupon), ['coupon']);
      assert.equal(coupon.headers.get('cache-control'), 'no-store');
      assert.equal(minted(), before + 1);
    });

    test('a list read page by page to its end holds every item once, as one long page does', async () => {
      for (const [operation, field] of [
        ['campaigns', 'campaigns'],
        ['businessAccounts', 'businessAccounts'],
      ] as const) {
        const whole = (await call(operation, { limit: 50 })).body.data[field];
        assert.equal(whole.nextToken, null, `${operation}: one page of 50 holds the seed`);
        const ids: string[] = [];
        let nextToken: string | undefined;
        let pages = 0;
        do {
          const page = await call(operation, { limit: 2, ...(nextToken ? { nextToken } : {}) });
          assert.equal(page.status, 200, page.text);
          assert.ok(page.body.data[field].items.length <= 2);
          ids.push(...page.body.data[field].items.map((item: { id: string }) => item.id));
          nextToken = page.body.data[field].nextToken ?? undefined;
          pages += 1;
        } while (nextToken && pages < 50);
        assert.deepEqual(
          ids,
          whole.items.map((item: { id: string }) => item.id),
          operation,
        );
        assert.ok(pages > 2, `${operation} took several pages`);
      }
    });

    test('a forged, edited or other list’s cursor is refused with 400 invalid_cursor', async () => {
      const first = await call('campaigns', { limit: 2 });
      const cursor = first.body.data.campaigns.nextToken as string;
      assert.match(cursor, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      const [payload, mac] = cursor.split('.') as [string, string];
      const flipped = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
      const edited = `${Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('"s":0', '"s":1')).toString('base64url')}.${mac}`;
      for (const [what, variables] of [
        ['made up', { nextToken: 'not-a-cursor' }],
        ['MAC changed', { nextToken: flipped }],
        ['position edited', { nextToken: edited }],
        ['another list', { nextToken: cursor, businessAccountId: 'biz-harbor-coffee' }],
      ] as const) {
        refused(await call('campaigns', { limit: 2, ...variables }), 400, 'invalid_cursor', what);
      }
      refused(await call('businessAccounts', { nextToken: cursor }), 400, 'invalid_cursor', 'another operation');
      assert.equal((await call('campaigns', { limit: 2, nextToken: cursor })).status, 200, 'the cursor itself works');
    });

    test('requests the protocol refuses get their code and status', async () => {
      refused(await call('campaigns', {}, { method: 'GET' }), 400, 'bad_request', 'a GET that names no operation');
      const mutation = await call(
        'requestCoupon',
        {},
        { method: 'GET', query: `operation=requestCoupon&campaignId=${COUPON_CAMPAIGN}` },
      );
      refused(mutation, 405, 'method_not_allowed', 'a mutation as GET');
      assert.match(mutation.headers.get('allow') ?? '', /POST/);
      for (const [what, query, code] of [
        ['a variable given twice', 'operation=campaigns&limit=2&limit=3', 'invalid_variables'],
        ['a variable of another operation', 'operation=campaigns&id=x', 'invalid_variables'],
        ['an integer that is none', 'operation=campaigns&limit=two', 'invalid_variables'],
        ['two operations', 'operation=campaigns&operation=businessAccounts', 'bad_request'],
        ['an unknown operation', 'operation=deleteEverything', 'unknown_operation'],
      ] as const) {
        refused(await call('campaigns', {}, { method: 'GET', query }), 400, code, what);
      }
      const put = await call('campaigns', {}, { method: 'PUT' });
      refused(put, 405, 'method_not_allowed', 'PUT');
      assert.match(put.headers.get('allow') ?? '', /GET, POST/);
      refused(
        await call('campaigns', {}, { headers: { 'content-type': 'text/plain' } }),
        415,
        'unsupported_media_type',
        'a form',
      );
      refused(
        await call(
          'campaigns',
          {},
          { raw: JSON.stringify({ operation: 'campaigns', variables: { id: 'x'.repeat(17_000) } }) },
        ),
        413,
        'payload_too_large',
        'over 16 KiB',
      );
      refused(await call('campaigns', {}, { raw: '{"operation":' }), 400, 'bad_request', 'not JSON');
      refused(await call('campaigns', {}, { raw: '["campaigns"]' }), 400, 'bad_request', 'not an object');
      refused(await call({ query: '{ campaigns { items { id } } }' }), 400, 'bad_request', 'a GraphQL document');
      refused(await call({ operation: 'campaigns', extra: 1 }), 400, 'bad_request', 'an unknown field');
      refused(await call('deleteEverything', {}), 400, 'unknown_operation', 'an unknown operation');
      for (const [operation, variables, what] of [
        ['campaigns', { limit: 0 }, 'limit below 1'],
        ['campaigns', { limit: 51 }, 'limit over 50'],
        ['campaigns', { limit: 2.5 }, 'limit not whole'],
        ['campaigns', { limit: '2' }, 'limit a string'],
        ['campaigns', { sort: 'title' }, 'an unknown variable'],
        ['campaign', {}, 'id missing'],
        ['campaign', { id: '' }, 'id empty'],
        ['campaign', { id: 'x'.repeat(257) }, 'id over 256 characters'],
        ['businessAccounts', { category: 7 }, 'category a number'],
        ['campaigns', ['limit'], 'variables not an object'],
      ] as const) {
        refused(await call(operation, variables as Record<string, unknown>), 400, 'invalid_variables', what);
      }
      assert.equal((await call('campaign', { id: 'é'.repeat(256) })).status, 200, '256 characters are allowed');
      refused(
        await claim(COUPON_CAMPAIGN, { 'idempotency-key': 'has space' }),
        400,
        'bad_request',
        'a malformed Idempotency-Key',
      );
    });

    test('the Marketing API’s refusals are mapped: an unknown campaign 404, a campaign without coupons 422', async () => {
      const before = minted();
      refused(await claim('camp-nobody-has', { 'user-agent': 'refusals' }), 404, 'not_found', 'an unknown campaign');
      refused(
        await claim(VISIT_CAMPAIGN, { 'user-agent': 'refusals' }),
        422,
        'no_coupon_objective',
        'a visit campaign',
      );
      assert.equal(minted(), before);
    });

    test('another origin is refused with 403 and no CORS headers; the listed origin and its preflight are allowed', async () => {
      const other = await call('campaigns', { limit: 1 }, { origin: 'https://attacker.example' });
      refused(other, 403, 'origin_not_allowed', 'another origin');
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      const preflightOther = await call('campaigns', {}, { method: 'OPTIONS', origin: 'https://attacker.example' });
      assert.equal(preflightOther.status, 403);
      assert.equal(preflightOther.headers.get('access-control-allow-origin'), null);

      const listed = await call('campaigns', { limit: 1 }, { origin: LISTED_ORIGIN });
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get('access-control-allow-origin'), LISTED_ORIGIN);
      assert.equal(listed.headers.get('access-control-allow-credentials'), null);
      assert.match(listed.headers.get('vary') ?? '', /Origin/);
      const preflight = await call('campaigns', {}, { method: 'OPTIONS', origin: LISTED_ORIGIN });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), LISTED_ORIGIN);
      assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST');
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /idempotency-key/);
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /x-loyalty-id-token/);
      assert.equal(preflight.headers.get('access-control-max-age'), '600');

      assert.equal((await call('campaigns', { limit: 1 }, { origin: null })).status, 200, 'no Origin: not a page');
      assert.equal((await call('campaigns', { limit: 1 })).status, 200, 'the same origin');
    });

    test('an Idempotency-Key replays its answer, marked, and refuses other variables', async () => {
      const key = `replay-${name}-${Date.now()}`;
      const headers = { 'idempotency-key': key, 'user-agent': 'replays' };
      const before = minted();
      const first = await claim(COUPON_CAMPAIGN, headers);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const again = await claim(COUPON_CAMPAIGN, headers);
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.equal(minted(), before + 1);
      refused(await claim('camp-peak-rental', headers), 409, 'idempotency_key_reused', 'other variables');
      const elsewhere = await claim(COUPON_CAMPAIGN, { ...headers, 'user-agent': 'another browser' });
      assert.equal(elsewhere.headers.get('idempotent-replayed'), null, 'a key is one shopper’s');
      assert.notEqual(elsewhere.body.data.requestCoupon.coupon.code, first.body.data.requestCoupon.coupon.code);
      assert.equal(minted(), before + 2);
    });

    test('200 concurrent claims under one Idempotency-Key mint one coupon, and all 200 get it', async () => {
      const headers = { 'idempotency-key': `crowd-${name}-${Date.now()}`, 'user-agent': 'crowd' };
      const before = minted();
      const replies = await Promise.all(Array.from({ length: 200 }, () => claim(COUPON_CAMPAIGN, headers)));
      assert.deepEqual(
        replies.filter((reply) => reply.status !== 200).map((reply) => reply.text),
        [],
      );
      const codes = new Set(replies.map((reply) => reply.body.data.requestCoupon.coupon.code as string));
      assert.equal(codes.size, 1);
      assert.equal(minted(), before + 1);
      assert.equal(replies.filter((reply) => reply.headers.get('idempotent-replayed') !== 'true').length, 1);
    });

    describe('a members-only coupon', () => {
      let shopper: SignedInTokens;
      const bearer = (tokens: SignedInTokens) => ({
        authorization: `Bearer ${tokens.accessToken}`,
        'x-loyalty-id-token': tokens.idToken,
      });
      const claims = (idToken: string) =>
        JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

      before(async () => {
        shopper = await signInAs({
          connectUrl: target.sandbox.connectUrl,
          clientId: target.clientId,
          redirectUri: REDIRECT_URI,
        });
      });

      test('needs the shopper’s tokens: without them 401 signin_required, and nothing is minted', async () => {
        const before = minted();
        const anonymous = await claim(MEMBERS_CAMPAIGN);
        refused(anonymous, 401, 'signin_required', 'no tokens');
        assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer/);
        assert.equal(minted(), before);
      });

      test('a valid ID token mints', async () => {
        const before = minted();
        const reply = await claim(MEMBERS_CAMPAIGN, bearer(shopper));
        assert.equal(reply.status, 200, reply.text);
        assert.match(reply.body.data.requestCoupon.coupon.code, /\S/);
        assert.equal(minted(), before + 1);
      });

      test('an expired, another app’s or unsigned ID token is refused with 401 invalid_token', async () => {
        const valid = claims(shopper.idToken);
        const now = Math.floor(Date.now() / 1000);
        const expired = await signIdToken(new KeyRing(target.dataDir), {
          issuer: valid.iss as string,
          sub: valid.sub as string,
          audience: target.clientId,
          nonce: 'n',
          authTime: now - 7200,
          lifetimeSeconds: 600,
          now: now - 7200,
          accessToken: shopper.accessToken,
        });
        const otherApp = await signInAs({
          connectUrl: target.sandbox.connectUrl,
          clientId: target.otherClientId,
          redirectUri: REDIRECT_URI,
        });
        const [header, payload] = shopper.idToken.split('.') as [string, string];
        const unsigned = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(header, 'base64url').toString()), alg: 'none' })).toString('base64url')}.${payload}.`;
        const before = minted();
        for (const [what, tokens] of [
          ['expired', { ...shopper, idToken: expired }],
          ['another app’s', otherApp],
          ['unsigned', { ...shopper, idToken: unsigned }],
          [
            'signature of another token',
            { ...shopper, idToken: `${header}.${payload}.${otherApp.idToken.split('.')[2]}` },
          ],
        ] as const) {
          const reply = await claim(MEMBERS_CAMPAIGN, bearer(tokens));
          refused(reply, 401, 'invalid_token', what);
          assert.match(reply.headers.get('www-authenticate') ?? '', /error="invalid_token"/, what);
        }
        assert.equal(minted(), before);
      });
    });

    test('a mint slower than the timeout is answered 504 with Retry-After, and the retry with its key gets the coupon', async () => {
      const headers = { 'idempotency-key': `slow-${name}-${Date.now()}`, 'user-agent': 'slow' };
      const before = minted();
      target.slow.setMintDelay(TIMEOUT_MS + 1500);
      try {
        const first = await claim(COUPON_CAMPAIGN, headers);
        refused(first, 504, 'upstream_timeout', 'the first answer');
        assert.equal(first.headers.get('retry-after'), '1');
        let retry = await claim(COUPON_CAMPAIGN, headers);
        // As the widget does: asked again after Retry-After while the proxy still waits.
        for (let tries = 0; retry.status === 504 && tries < 5; tries++) retry = await claim(COUPON_CAMPAIGN, headers);
        assert.equal(retry.status, 200, retry.text);
        assert.equal(retry.body.data.requestCoupon.coupon.code, target.slow.minted.at(-1));
        assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      } finally {
        target.slow.setMintDelay(0);
      }
      assert.equal(minted(), before + 1);
    });

    test('the default rate limits: 10 coupons per shopper, then 60 per address, each in 10 minutes, then 429 with Retry-After', async () => {
      const kept = { 'idempotency-key': `kept-${name}`, 'user-agent': 'kept' };
      assert.equal((await claim(COUPON_CAMPAIGN, kept)).status, 200);
      let accepted = 0;
      let refusal: Answer | undefined;
      for (let index = 0; index < 12 && !refusal; index++) {
        const reply = await claim(COUPON_CAMPAIGN, { 'user-agent': 'one shopper' });
        if (reply.status === 200) accepted += 1;
        else refusal = reply;
      }
      assert.equal(accepted, 10);
      refused(refusal!, 429, 'rate_limited', 'the 11th coupon of a shopper');
      const retryAfter = Number(refusal!.headers.get('retry-after'));
      assert.ok(retryAfter > 500 && retryAfter <= 600, `Retry-After ${retryAfter}`);

      refusal = undefined;
      for (let index = 0; index < 70 && !refusal; index++) {
        const reply = await claim(COUPON_CAMPAIGN, { 'user-agent': `shopper ${index}` });
        if (reply.status !== 200) refusal = reply;
      }
      refused(refusal!, 429, 'rate_limited', 'past 60 coupons of an address');
      assert.ok(minted() <= 60, `${minted()} coupons minted from one address`);
      // A replay is no mint: it is answered past the limit, while a new key counts.
      const replay = await claim(COUPON_CAMPAIGN, kept);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      refused(
        await claim(COUPON_CAMPAIGN, { ...kept, 'idempotency-key': `new-${name}` }),
        429,
        'rate_limited',
        'a new key',
      );
    });

    test('queries that miss the cache: 300 per address in 10 minutes, then 429; cached answers still served', async () => {
      const cached = await call('campaigns', { limit: 3 });
      assert.equal(cached.status, 200);
      let refusal: Answer | undefined;
      let misses = 0;
      for (let index = 0; index < 320 && !refusal; index++) {
        const reply = await call('campaign', { id: `camp-miss-${index}` });
        if (reply.status === 200) misses += 1;
        else refusal = reply;
      }
      refused(refusal!, 429, 'rate_limited', 'past 300 misses');
      assert.match(refusal!.body.error.message, /queries/);
      assert.ok(misses > 200 && misses <= 300, `${misses} misses answered before the limit`);
      const hit = await call('campaigns', { limit: 3 });
      assert.equal(hit.status, 200, 'a cached answer costs nothing');
      assert.match(hit.headers.get('x-cache') ?? '', /^(HIT|STALE)$/);
    });

    test('a read sent as GET answers the same page with an ETag, and 304 with no body when the page has it', async () => {
      const posted = await call('campaigns', { limit: 2 });
      const query = 'operation=campaigns&limit=2';
      const got = await call('campaigns', {}, { method: 'GET', query });
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body, posted.body);
      const etag = got.headers.get('etag') ?? '';
      assert.match(etag, /^"[0-9a-f]{32}"$/);
      assert.match(got.headers.get('cache-control') ?? '', /max-age=\d+/);
      const again = await call('campaigns', {}, { method: 'GET', query, headers: { 'if-none-match': etag } });
      assert.deepEqual([again.status, again.text, again.headers.get('etag')], [304, '', etag]);
      const other = await call('campaigns', {}, { method: 'GET', query, headers: { 'if-none-match': '"0"' } });
      assert.equal(other.status, 200, 'another ETag gets the page');
    });

    test('every answer carries Loyalty-Proxy: 1 and exposes it to pages on other origins', () => {
      assert.ok(answers.length > 300);
      for (const answer of answers) {
        assert.equal(answer.headers.get('loyalty-proxy'), '1', `${answer.status} ${answer.text.slice(0, 80)}`);
        if (answer.headers.get('access-control-allow-origin'))
          assert.match(answer.headers.get('access-control-expose-headers') ?? '', /loyalty-proxy/i);
      }
      assert.ok(
        answers.some((answer) => answer.headers.get('access-control-allow-origin')),
        'answers to another origin were read',
      );
    });

    test('the key appears in no answer, no header and no log line', () => {
      for (const answer of answers) {
        assert.ok(!answer.text.includes(CONTRACT_API_KEY));
        for (const [header, value] of answer.headers) assert.ok(!value.includes(CONTRACT_API_KEY), header);
      }
      const log = target.log();
      assert.ok(!log.includes(CONTRACT_API_KEY), 'the log');
      assert.deepEqual(problemsIn(log), [], 'no PHP notice, warning or error');
    });
  });
}
