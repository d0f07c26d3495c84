/**
 * A real OpenID Connect provider (implicit flow) on localhost with real RS256 keys, that a test
 * can tell to answer the next sign-in with a deliberately broken response. It consents at once
 * (no form), so browser tests can drive a real popup through it; the relying-party checks then run
 * in the browser's real code path. Control it over HTTP:
 *   POST /__hostile/scenario {"scenario": "<name>"}   the next /auth answers that way
 *   GET  /__hostile/stats                              requests seen, /me and /jwks calls
 * It is also a hostile Marketing endpoint on its own origin, as a page's block may name one:
 *   POST /__hostile/marketing          answers every campaign with a coupon and every claim with
 *                                      EVIL-PLANTED-CODE, with the proxy's Loyalty-Proxy marker (a hostile
 *                                      server can copy it); /__hostile/marketing/refuse answers claims
 *                                      401 signin_required; …/unmarked leaves the marker out, …/text
 *                                      answers as text/plain. The headers it was sent are in the stats.
 *   POST /__hostile/redirect?to=URL    an open redirect (307) on an origin a merchant may trust.
 * And any other site that opens a shop's page:
 *   GET  /__hostile/opener?url=URL     a page that opens URL in a new window at the first key press.
 * A web-test-runner plugin (hostileProviderPlugin) starts it and tells tests where it is at
 * GET /__hostile.json on the test server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload } from 'jose';

import { SCENARIOS, plantedAnswer, type Scenario } from './hostile-scenarios.ts';

export { REFUSED_TOKEN_SCENARIOS, SCENARIOS, type Scenario } from './hostile-scenarios.ts';

export interface HostileProvider {
  url: string;
  clientId: string;
  setScenario(scenario: Scenario): void;
  stats(): HostileStats;
  close(): Promise<void>;
}

export interface HostileStats {
  scenario: Scenario;
  authRequests: Record<string, string>[];
  meCalls: number;
  jwksFetches: number;
  /** The headers of each request to the hostile Marketing endpoint. */
  marketingRequests: Record<string, string>[];
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  publicPem: string;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    publicPem: await exportSPKI(publicKey),
  };
}

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

function atHash(accessToken: string): string {
  return b64url(createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16));
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'application/json',
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type, idempotency-key, authorization, x-loyalty-id-token',
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startHostileProvider({
  redirectUris,
  clientId = 'hostile-test-app',
}: {
  redirectUris: string[];
  clientId?: string;
}): Promise<HostileProvider> {
  const first = await newKey('key-1');
  const rotated = await newKey('key-2');
  const unpublished = await newKey('key-unpublished');
  const impostor = await newKey('key-1'); // same kid as the real key, different key pair
  let published: SigningKey[] = [first];
  let scenario: Scenario = 'valid';
  let lastResponse: string | undefined;
  let heldRequest: URLSearchParams | undefined;
  const stats: Omit<HostileStats, 'scenario'> = { authRequests: [], meCalls: 0, jwksFetches: 0, marketingRequests: [] };
  const subject = 'hostile-user-1';
  let url = '';

  /** A response fragment for a request, broken the way the current scenario says. */
  async function buildResponse(request: URLSearchParams, forced: Scenario = scenario): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const accessToken = b64url(randomBytes(24));
    const claims: JWTPayload = {
      iss: url,
      aud: clientId,
      sub: subject,
      iat: now,
      exp: now + 300,
      nonce: request.get('nonce') ?? '',
      at_hash: atHash(accessToken),
    };
    let key = published[0]!;
    let header: { alg: string; kid?: string } = { alg: 'RS256', kid: key.kid };
    let state = request.get('state') ?? '';
    switch (forced) {
      case 'valid-no-kid':
        header = { alg: 'RS256' };
        break;
      case 'wrong-iss':
        claims.iss = `${url}/other`;
        break;
      case 'wrong-aud':
        claims.aud = 'another-app';
        break;
      case 'expired':
        claims.iat = now - 900;
        claims.exp = now - 120;
        break;
      case 'expired-within-skew':
        claims.iat = now - 900;
        claims.exp = now - 30;
        break;
      case 'missing-iat':
        delete claims.iat;
        break;
      case 'future-iat':
        claims.iat = now + 3600;
        claims.exp = now + 20 * 365 * 86400;
        break;
      case 'foreign-azp':
        claims.azp = 'another-app';
        break;
      case 'missing-sub':
        delete claims.sub;
        break;
      case 'wrong-nonce':
        claims.nonce = b64url(createHash('sha256').update('another value').digest());
        break;
      case 'missing-nonce':
        delete claims.nonce;
        break;
      case 'wrong-at-hash':
        claims.at_hash = atHash('another token');
        break;
      case 'missing-at-hash':
        delete claims.at_hash;
        break;
      case 'bad-signature':
        key = impostor;
        break;
      case 'unknown-kid':
        key = unpublished;
        header = { alg: 'RS256', kid: unpublished.kid };
        break;
      case 'rotate-keys':
        published = [rotated];
        key = rotated;
        header = { alg: 'RS256', kid: rotated.kid };
        break;
      case 'forged-state':
        state = b64url(randomBytes(32));
        break;
      default:
        break;
    }
    let idToken: string;
    if (forced === 'alg-none') {
      idToken = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`;
    } else if (forced === 'hs256-public-key') {
      idToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid: first.kid })
        .sign(new TextEncoder().encode(first.publicPem));
    } else {
      idToken = await new SignJWT(claims).setProtectedHeader(header).sign(key.privateKey);
    }
    const scope = forced === 'no-profile-scope' ? 'openid' : (request.get('scope') ?? 'openid');
    const fragment = new URLSearchParams({
      id_token: idToken,
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: '3600',
      scope,
      state,
    });
    return fragment.toString();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reqUrl = new URL(req.url ?? '/', url);
    if (req.method === 'OPTIONS') return send(res, 204, '');
    switch (reqUrl.pathname) {
      case '/.well-known/openid-configuration': {
        const algorithms =
          scenario === 'alg-none' || scenario === 'hs256-public-key' ? ['RS256', 'HS256', 'none'] : ['RS256'];
        return send(
          res,
          200,
          JSON.stringify({
            issuer: url,
            authorization_endpoint: `${url}/auth`,
            jwks_uri: `${url}/jwks`,
            userinfo_endpoint: `${url}/me`,
            response_types_supported: ['id_token token'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: algorithms,
            scopes_supported: ['openid', 'profile'],
          }),
        );
      }
      case '/jwks':
        stats.jwksFetches++;
        return send(res, 200, JSON.stringify({ keys: published.map((key) => key.publicJwk) }));
      case '/me': {
        stats.meCalls++;
        const sub = scenario === 'me-other-sub' ? 'someone-else' : subject;
        if (!reqUrl.searchParams.get('access_token')) return send(res, 401, JSON.stringify({ error: 'invalid_token' }));
        const profile = { username: 'hostile-demo', loyaltyId: '0xh0571le' };
        return send(res, 200, JSON.stringify(scenario === 'me-without-sub' ? profile : { sub, ...profile }));
      }
      case '/auth': {
        const request = reqUrl.searchParams;
        stats.authRequests.push(Object.fromEntries(request));
        const redirectUri = request.get('redirect_uri') ?? '';
        if (request.get('client_id') !== clientId || !redirectUris.includes(redirectUri))
          return send(res, 400, 'unknown client or redirect_uri', 'text/plain');
        if (
          request.get('response_type') !== 'id_token token' ||
          !request.get('nonce') ||
          !request.get('scope')?.split(' ').includes('openid')
        ) {
          return send(res, 400, 'invalid implicit request', 'text/plain');
        }
        if (scenario === 'hold') {
          heldRequest = request;
          return send(
            res,
            200,
            '<!doctype html><title>Held</title><p>Held sign-in</p><script>setTimeout(() => window.close(), 1500)</script>',
            'text/html',
          );
        }
        let fragment: string;
        if (scenario === 'access-denied') {
          fragment = new URLSearchParams({
            error: 'access_denied',
            error_description: 'The user cancelled',
            state: request.get('state') ?? '',
          }).toString();
        } else if (scenario === 'server-error') {
          fragment = new URLSearchParams({
            error: 'temporarily_unavailable',
            error_description: 'Down for maintenance',
            state: request.get('state') ?? '',
          }).toString();
        } else if (scenario === 'replay-previous' && lastResponse) {
          fragment = lastResponse;
        } else {
          fragment = await buildResponse(request);
        }
        if (scenario !== 'replay-previous') lastResponse = fragment;
        res.writeHead(302, { location: `${redirectUri}#${fragment}`, 'cache-control': 'no-store' });
        return void res.end();
      }
      case '/__hostile/forge': {
        // A page of another origin trying to pass a well-formed, validly signed response to the opener's
        // window; oidc-client-ts must ignore it because of its origin.
        const forged = heldRequest
          ? `${heldRequest.get('redirect_uri')}#${await buildResponse(heldRequest, 'valid')}`
          : '';
        const script = `parent.postMessage({ source: 'oidc-client', url: ${JSON.stringify(forged)}, keepOpen: false }, '*');`;
        return send(res, 200, `<!doctype html><title>Forger</title><script>${script}</script>`, 'text/html');
      }
      case '/__hostile/marketing':
      case '/__hostile/marketing/refuse':
      case '/__hostile/marketing/unmarked':
      case '/__hostile/marketing/text': {
        // A read comes as a GET with its call in the query, as the proxy's protocol allows; anything else as JSON.
        const query = Object.fromEntries(reqUrl.searchParams);
        const { operation, variables } = (
          req.method === 'GET' ? { operation: query.operation, variables: query } : await readJson(req)
        ) as {
          operation?: string;
          variables?: { id?: string; campaignId?: string };
        };
        stats.marketingRequests.push(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
        // A hostile server can copy the proxy's marker; /unmarked leaves it out, /text answers text.
        const path = reqUrl.pathname;
        const marker: Record<string, string> = path.endsWith('/unmarked')
          ? {}
          : { 'loyalty-proxy': '1', 'access-control-expose-headers': 'loyalty-proxy' };
        const type = path.endsWith('/text') ? 'text/plain' : 'application/json';
        if (operation === 'campaign') {
          const objective = { __typename: 'CouponObjective', price: 1 };
          const campaign = { id: variables?.id, content: { title: 'A campaign', objective } };
          return send(res, 200, JSON.stringify({ data: { campaign } }), type, marker);
        }
        if (path.endsWith('/refuse'))
          return send(
            res,
            401,
            JSON.stringify({ error: { code: 'signin_required', message: 'Sign in first.' } }),
            type,
            marker,
          );
        return send(res, 200, JSON.stringify(plantedAnswer(variables?.campaignId ?? '')), type, marker);
      }
      case '/__hostile/redirect':
        return send(res, 307, '', 'text/plain', { location: reqUrl.searchParams.get('to') ?? '/' });
      case '/__hostile/opener': {
        const target = JSON.stringify(reqUrl.searchParams.get('url') ?? '');
        const script = `addEventListener('keydown', () => open(${target}, '_blank'), { once: true });`;
        return send(res, 200, `<!doctype html><title>Another site</title><script>${script}</script>`, 'text/html');
      }
      case '/__hostile/scenario': {
        const body = await readJson(req);
        const next = body.scenario as Scenario;
        if (!SCENARIOS.includes(next))
          return send(res, 400, JSON.stringify({ error: `unknown scenario ${String(next)}` }));
        scenario = next;
        if (body.reset) {
          published = [first];
          stats.authRequests = [];
          stats.meCalls = 0;
          stats.jwksFetches = 0;
          stats.marketingRequests = [];
        }
        return send(res, 200, JSON.stringify({ scenario }));
      }
      case '/__hostile/stats':
        return send(res, 200, JSON.stringify({ scenario, ...stats }));
      default:
        return send(res, 404, JSON.stringify({ error: 'not found' }));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, JSON.stringify({ error: String(error) })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    setScenario: (next) => void (scenario = next),
    stats: () => ({ scenario, ...stats }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** web-test-runner plugin: starts the hostile provider and serves its address at GET /__hostile.json. */
export function hostileProviderPlugin() {
  let provider: HostileProvider | undefined;
  let env = '';
  return {
    name: 'loyalty-hostile-provider',
    async serverStart({ config }: { config: { port?: number } }) {
      const origin = `http://localhost:${config.port ?? 8765}`;
      const redirectUri = `${origin}/test/browser/fixtures/callback.html`;
      provider = await startHostileProvider({ redirectUris: [redirectUri, `${origin}/`] });
      env = JSON.stringify({ url: provider.url, clientId: provider.clientId, redirectUri });
    },
    serve(context: { path: string }) {
      if (context.path === '/__hostile.json')
        return { body: env, type: 'application/json', headers: { 'cache-control': 'no-store' } };
      return undefined;
    },
    async serverStop() {
      await provider?.close();
    },
  };
}
