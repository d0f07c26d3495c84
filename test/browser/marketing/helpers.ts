/** Helpers shared by the Marketing browser tests (the real sandbox and proxy are behind /api/marketing). */
import type { SandboxStats } from '../../../src/sandbox/index.ts';
import type { LoyaltyUser } from '../../../src/connect/session.ts';
import type { TestEnv } from '../../support/services.ts';

export async function sandboxStats(): Promise<SandboxStats> {
  const response = await fetch('/__sandbox/stats');
  return (await response.json()) as SandboxStats;
}

/**
 * The operation and variables of a call to the proxy: a read without credentials is a GET whose query
 * names them (integers read back as numbers), anything else a POST with them in its JSON body.
 */
export function marketingCall(
  input: RequestInfo | URL,
  init?: RequestInit,
): { operation?: string; variables: Record<string, unknown> } {
  if (typeof init?.body === 'string') {
    const body = JSON.parse(init.body) as { operation?: string; variables?: Record<string, unknown> };
    return { operation: body.operation, variables: body.variables ?? {} };
  }
  const { searchParams } = new URL(input instanceof Request ? input.url : String(input), location.href);
  const variables: Record<string, unknown> = {};
  for (const [name, value] of searchParams) {
    if (name !== 'operation') variables[name] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return { operation: searchParams.get('operation') ?? undefined, variables };
}

export interface RecordedCall {
  operation: string;
  variables: Record<string, unknown>;
  headers: Headers;
}

/**
 * Records every call to the Marketing proxy made through `window.fetch` (the calls still go to the
 * real proxy). `fail(n)` makes the next n calls look like network failures after they reached the
 * server, as when a response is lost on a flaky connection.
 */
export function recordFetches() {
  const original = window.fetch;
  const calls: RecordedCall[] = [];
  let lostResponses = 0;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (!url.pathname.startsWith('/api/marketing')) return original(input, init);
    const { operation = '', variables } = marketingCall(input, init);
    calls.push({ operation, variables, headers: new Headers(init?.headers) });
    const response = await original(input, init);
    if (lostResponses > 0) {
      lostResponses--;
      throw new TypeError('Failed to fetch');
    }
    return response;
  };
  return {
    calls,
    of: (operation: string) => calls.filter((call) => call.operation === operation),
    loseResponses(count: number) {
      lostResponses = count;
    },
    restore() {
      window.fetch = original;
    },
  };
}

/** Answers every call with this response (for shapes the real proxy never sends); `restore()` is idempotent. */
export function stubFetch(respond: () => Response | Promise<Response>) {
  const original = window.fetch;
  window.fetch = async () => respond();
  return { restore: () => void (window.fetch = original) };
}

/** Holds every request until `release()`, so the element is surely on its skeleton first. */
export function holdFetch() {
  const original = window.fetch;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  window.fetch = async (input, init) => {
    await opened;
    return original(input, init);
  };
  return {
    release() {
      window.fetch = original;
      open();
    },
  };
}

/** A network that never answers: every call waits until its signal aborts. `signals` are the calls' signals. */
export function hangFetch() {
  const original = window.fetch;
  const signals: AbortSignal[] = [];
  window.fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      const signal = init!.signal!;
      signals.push(signal);
      signal.addEventListener('abort', () => reject(signal.reason));
    });
  return { signals, restore: () => void (window.fetch = original) };
}

export function clearStoredClaims(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith('loyalty-widgets:')) localStorage.removeItem(key);
}

/**
 * Answers one operation from a script of pages, in the proxy's wire shape, as a proxy that stopped
 * filling at its cap would: page i is asked for with nextToken `page-i`. With `endless`, every page
 * past the script is empty and still has a nextToken. `asked` lists the tokens asked for (null first).
 * `answer(index)`, when given, is awaited before page `index` is answered (to hold a page back).
 */
export function scriptPages(
  operation: 'campaigns' | 'businessAccounts',
  pages: unknown[][],
  { endless = false, answer }: { endless?: boolean; answer?: (index: number) => Promise<void> } = {},
) {
  const original = window.fetch;
  const asked: Array<string | null> = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = marketingCall(input, init);
    if (call.operation !== operation) return original(input, init);
    const token = (call.variables.nextToken as string | undefined) ?? null;
    asked.push(token);
    const index = token === null ? 0 : Number(/^page-(\d+)$/.exec(token)![1]);
    await answer?.(index);
    const nextToken = endless || index + 1 < pages.length ? `page-${index + 1}` : null;
    const payload = { data: { [operation]: { items: pages[index] ?? [], nextToken } } };
    return new Response(JSON.stringify(payload), { headers: { 'content-type': 'application/json' } });
  };
  return { asked, restore: () => void (window.fetch = original) };
}

/** A campaign in the proxy's wire shape. */
export const wireCampaign = (id: string) => ({
  id,
  businessAccountId: 'biz-script',
  content: { title: `Campaign ${id}`, subtitle: null, description: null, objective: null },
});

/** A business account in the proxy's wire shape. */
export const wireAccount = (id: string, pending = false) => ({
  id,
  name: `Business ${id}`,
  pending,
  customProperties: [],
});

/** Coupons the Marketing sandbox has minted so far. */
export async function minted(): Promise<number> {
  return (await sandboxStats()).couponsMinted;
}

/** A signed-in shopper with tokens the test proxy does not check; `n` tells shoppers apart. */
export function testShopper(n: number | string, overrides: Partial<LoyaltyUser> = {}): LoyaltyUser {
  return {
    sub: `shopper-${n}`,
    username: 'demo',
    loyaltyId: '0xabc',
    accessToken: `access-token-${n}`,
    idToken: `id-token-${n}`,
    expiresAt: Date.now() + 3_600_000,
    scope: 'openid profile',
    ...overrides,
  };
}

/**
 * Sends the element's coupon requests to the real proxy at `path` (one configured to refuse them:
 * TestEnv.refusingProxyPaths) instead of the default one, so the element meets the proxy's own
 * answer; other calls go where they were going. `answers` holds the proxy's answers as received.
 */
export function answerClaimsFrom(path: string) {
  const original = window.fetch;
  const answers: Response[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { operation?: string }) : {};
    if (body.operation !== 'requestCoupon') return original(input, init);
    const response = await original(path, init);
    answers.push(response.clone());
    return response;
  };
  return { answers, restore: () => void (window.fetch = original) };
}

/** Claims one coupon from the proxy at `path` as this browser's shopper (using up a limit of one). */
export async function claimDirectly(path: string, campaignId: string): Promise<number> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'requestCoupon', variables: { campaignId } }),
  });
  await response.body?.cancel();
  return response.status;
}

/** Where the test services are (GET /__env.json). */
export async function testEnv(): Promise<TestEnv> {
  return (await (await fetch('/__env.json')).json()) as TestEnv;
}
