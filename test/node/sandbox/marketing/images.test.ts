import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSeed, startMarketing, type RunningMarketing } from '../../../../src/sandbox/index.ts';
import { postGraphQL } from '../../support/graphql.ts';

describe('Marketing sandbox images', () => {
  let marketing: RunningMarketing;
  before(async () => {
    marketing = await startMarketing({ marketingPort: 0, apiKey: 'test-key' });
  });
  after(() => marketing.close());

  it('serves a 16:9 campaign image at the requested width, cacheable', async () => {
    const response = await fetch(`${marketing.origin}/images/camp-peak-rental.svg?w=640`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^image\/svg\+xml/);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=86400');
    assert.match(response.headers.get('content-security-policy')!, /sandbox/, 'an SVG opened directly runs nothing');
    const svg = await response.text();
    assert.match(svg, /^<svg [^>]*width="640" height="360"/);
    assert.match(svg, /Weekend tent rental/);
  });

  it('serves a square logo', async () => {
    const svg = await (await fetch(`${marketing.origin}/images/biz-lumen-books.svg?w=128`)).text();
    assert.match(svg, /^<svg [^>]*width="128" height="128"/);
    assert.match(svg, />LB</);
  });

  it('answers a bad width with 400 and an unknown id with 404', async () => {
    for (const w of ['0', '4097', 'abc', '12.5'])
      assert.equal((await fetch(`${marketing.origin}/images/camp-peak-rental.svg?w=${w}`)).status, 400, w);
    assert.equal((await fetch(`${marketing.origin}/images/nope.svg?w=10`)).status, 404);
  });
});

describe('Marketing sandbox with a seed of hostile records', () => {
  it('escapes text in images and passes URLs through untouched for the client to judge', async () => {
    const seed = defaultSeed();
    seed.campaigns = [
      {
        id: 'evil',
        businessAccountId: 'biz-evil',
        title: '<script>alert(1)</script> & "quotes"',
        subtitle: '</text><foreignObject>',
        description: null,
        objective: { type: 'coupon', price: '<b>0</b>' },
      },
      {
        id: 'evil-url',
        businessAccountId: 'biz-evil',
        title: 'x',
        subtitle: null,
        description: null,
        objective: null,
        featuredImageUrl: 'javascript:alert(document.domain)//{width}',
      },
    ];
    seed.businessAccounts = [
      {
        id: 'biz-evil',
        name: 'Evil',
        websiteUrl: 'javascript:alert(document.domain)',
        address: null,
        description: null,
        phoneNumber: null,
        category: null,
        logoUrl: 'data:text/html,<script>alert(1)</script>',
        pending: false,
        customProperties: [],
      },
    ];
    const marketing = await startMarketing({ marketingPort: 0, apiKey: 'k', seed });
    try {
      const svg = await (await fetch(`${marketing.origin}/images/evil.svg?w=100`)).text();
      assert.doesNotMatch(svg, /<script|<foreignObject|<\/text><foreign/);
      assert.match(svg, /&lt;script&gt;/);
      const response = await postGraphQL<{
        campaign: { content: { featuredImage: { url: string } } };
        businessAccounts: { items: Array<{ websiteUrl: string; logo: { url: string } }> };
      }>(
        marketing.marketingUrl,
        'k',
        '{ campaign(id: "evil-url") { content { featuredImage(width: 320) { url } } } businessAccounts { items { websiteUrl logo { url } } } }',
      );
      assert.equal(response.body.data!.campaign.content.featuredImage.url, 'javascript:alert(document.domain)//320');
      assert.equal(response.body.data!.businessAccounts.items[0]!.websiteUrl, 'javascript:alert(document.domain)');
    } finally {
      await marketing.close();
    }
  });
});
