/**
 * A mount's first page is asked for by the script tag as soon as it sees the mount, from the `data-`
 * attributes its element will be given, exactly as for the element's tag: one request for a tag and a
 * mount alike, none for a mount with its own `data-endpoint` or naming no widget. The element then
 * takes that answer instead of asking again.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { showsOneOf } from '../parts.ts';

describe('first pages of mounts', () => {
  it('are asked for when the script tag runs, one request for a tag and a mount alike', async () => {
    const original = window.fetch;
    const reads: string[] = [];
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (url.pathname.startsWith('/api/marketing'))
        reads.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
      return original(input, init);
    };
    const holder = document.createElement('section');
    holder.innerHTML = `
      <campaign-carousel limit="2" business-account-id="biz-harbor-coffee"></campaign-carousel>
      <div id="mounted" data-loyalty-widget=" Campaign-Carousel" data-limit="2" data-business-account-id="biz-harbor-coffee"></div>
      <div data-loyalty-widget="business-directory" data-category="Cafe" data-limit="70"></div>
      <div data-loyalty-widget="campaign-carousel" data-endpoint="/from-mount/marketing" data-limit="5"></div>
      <div data-loyalty-widget="campaign-slider" data-limit="7"></div>`;
    document.body.append(holder);
    try {
      await import('../../../src/index.ts');
      // The script tag ran: what it asked for early, before any element's code is here.
      expect(reads).to.deep.equal([
        'GET /api/marketing?operation=campaigns&businessAccountId=biz-harbor-coffee&limit=2',
        // A limit the proxy refuses is read as the element reads it: its default.
        'GET /api/marketing?operation=businessAccounts&category=Cafe&limit=12',
      ]);
      const mounted = holder.querySelector('#mounted')!;
      await waitUntil(() => mounted.querySelector('campaign-carousel'), 'the mount did not become its element', {
        timeout: 8000,
      });
      await showsOneOf(mounted.querySelector('campaign-carousel')!, ['slide']);
      await showsOneOf(holder.querySelector(':scope > campaign-carousel')!, ['slide']);
      const firstPages = reads.filter(
        (read) => read.startsWith('GET /api/marketing?operation=campaigns&') && !read.includes('nextToken'),
      );
      expect(firstPages, 'the tag and the mount took the one early answer').to.have.length(1);
    } finally {
      window.fetch = original;
    }
  });
});
