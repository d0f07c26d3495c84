/**
 * Issue 25, "held": values from the Marketing API (which a business account's editor may have
 * written) stay data. An image URL stays one srcset candidate whatever commas and spaces it holds,
 * and no upstream value reaches a style attribute.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import { stubFetch } from '../marketing/helpers.ts';
import { allInShadow, part, showsOneOf } from '../parts.ts';

const INJECTED = ' 1w, https://evil.example/pixel.png 2000w';
const STYLE_LIKE = 'x" style="background:url(https://evil.example/s.png)';

function hostileCampaign() {
  const image = (width: number) => ({ url: `https://cdn.example/${width}.png${INJECTED}` });
  return {
    id: 'camp-values',
    businessAccountId: 'biz-values',
    content: {
      title: STYLE_LIKE,
      subtitle: 'color: red; background: url(https://evil.example/t.png)',
      description: null,
      objective: { __typename: 'CouponObjective', price: STYLE_LIKE },
      img320: image(320),
      img640: image(640),
    },
  };
}

describe('values from the Marketing API', () => {
  it('an image URL stays one srcset candidate, and no value reaches a style attribute', async () => {
    const network = stubFetch(
      () =>
        new Response(JSON.stringify({ data: { campaigns: { items: [hostileCampaign()], nextToken: null } } }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    try {
      const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="1"></campaign-carousel>`);
      await showsOneOf(el, ['slide', 'error']);
      const image = part<HTMLImageElement>(el, 'image')!;
      const candidates = image.getAttribute('srcset')!.split(/,\s+/);
      expect(candidates).to.have.length(2);
      for (const candidate of candidates) {
        const [url, width, ...rest] = candidate.split(/\s+/);
        expect(rest, candidate).to.deep.equal([]);
        expect(width).to.match(/^\d+w$/);
        expect(new URL(url!).origin).to.equal('https://cdn.example');
      }
      expect(new URL(image.currentSrc || image.src).origin).to.equal('https://cdn.example');
      expect(part(el, 'title')!.textContent).to.equal(STYLE_LIKE);
      const styled = allInShadow(el, '[style]').map((node) => node.getAttribute('style') ?? '');
      expect(styled.filter((style) => /evil|red/.test(style))).to.deep.equal([]);
    } finally {
      network.restore();
    }
  });
});
