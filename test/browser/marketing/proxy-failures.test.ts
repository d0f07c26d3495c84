import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/campaign-carousel/index.ts';
import type { BusinessDirectory } from '../../../src/elements/business-directory/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import { marketingCall, stubFetch, wireAccount } from './helpers.ts';
import { part } from '../parts.ts';

// What the proxy answers when the Marketing API behind it refuses its key, throttles it, or no
// longer takes a cursor: each needs its own treatment in the elements, not a generic "try again".
const proxyError = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { code, message: `The proxy says ${code}.` } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

async function failed(el: Element): Promise<HTMLElement> {
  await waitUntil(() => part(el, 'error'), 'no failure shown', { timeout: 8000 });
  return part(el, 'error')!;
}

describe("Marketing elements and the proxy's upstream failures", () => {
  let stub: { restore(): void } | undefined;
  let warn: typeof console.warn;
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
  });
  afterEach(() => {
    stub?.restore();
    console.warn = warn;
  });

  for (const code of ['upstream_key_refused', 'upstream_schema_mismatch']) {
    it(`${code}: a set-up problem, told to the developer, with no retry button for the shopper`, async () => {
      stub = stubFetch(() => proxyError(502, code));
      const el = await fixture<CampaignCarousel>(html`<campaign-carousel></campaign-carousel>`);
      const error = await failed(el);
      expect(error.textContent).to.contain('not set up correctly');
      expect(error.querySelector('[part~="retry-button"]'), 'no retry').to.equal(null);
      expect(warnings.some((text) => text.includes(code) && text.includes('loyalty-proxy doctor'))).to.equal(true);
    });
  }

  it('upstream_throttled: tells the shopper when to try again, from Retry-After', async () => {
    stub = stubFetch(() => proxyError(503, 'upstream_throttled', { 'retry-after': '120' }));
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel lang="en"></campaign-carousel>`);
    const error = await failed(el);
    expect(error.textContent).to.contain('Too many requests');
    expect(error.textContent).to.contain('2 minutes');
    expect(error.querySelector('[part~="retry-button"]'), 'a retry helps later').to.not.equal(null);
  });

  it('invalid_cursor on "show more": the list starts again from its first page instead of retrying a dead cursor', async () => {
    const asked: Array<string | null> = [];
    const original = window.fetch;
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const call = marketingCall(input, init);
      if (call.operation !== 'businessAccounts') return original(input, init);
      const token = (call.variables.nextToken as string | undefined) ?? null;
      asked.push(token);
      if (token !== null) return proxyError(400, 'invalid_cursor');
      return new Response(
        JSON.stringify({ data: { businessAccounts: { items: [wireAccount('a')], nextToken: 'stale' } } }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    };
    stub = { restore: () => void (window.fetch = original) };
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="1"></business-directory>`);
    await waitUntil(() => part<HTMLButtonElement>(el, 'load-more-button'), 'no "show more"', { timeout: 8000 });
    part<HTMLButtonElement>(el, 'load-more-button')!.click();
    await waitUntil(() => asked.length >= 3, 'the list did not start again', { timeout: 5000 });
    expect(asked).to.deep.equal([null, 'stale', null]);
    await waitUntil(() => part(el, 'list'), 'the first page is shown again', { timeout: 5000 });
    expect(part(el, 'error')).to.equal(null);
  });
});
