/**
 * A merchant's developer pastes the elements with attributes that are wrong: each mistake gives a
 * clear message on the page and one console warning, never a blank element or a crash, and the
 * element recovers as soon as the attribute is corrected.
 */
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import type { CouponClaim } from '../../../src/elements/coupon-claim/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import { clearStoredClaims, recordFetches } from '../marketing/helpers.ts';
import { captureWarnings, textOf } from './helpers.ts';
import { part } from '../parts.ts';

const LATTE = 'camp-harbor-morning-latte';
const settled = (el: Element) =>
  waitUntil(
    () =>
      el.shadowRoot!.querySelector(
        '[part~="claim-button"], [part~="error"], [part~="slide"], [part~="card"], [part~="empty"]',
      ),
    'the element did not settle',
    {
      timeout: 8000,
    },
  );

describe('set-up mistakes (marketing elements)', () => {
  let warnings: ReturnType<typeof captureWarnings>;
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => {
    clearStoredClaims();
    warnings = captureWarnings();
    fetches = recordFetches();
  });
  afterEach(() => {
    warnings.restore();
    fetches.restore();
  });

  it('a missing campaign-id says so on the page and once in the console, offers no useless retry, and recovers', async () => {
    const el = await fixture<CouponClaim>(html`<coupon-claim></coupon-claim>`);
    await settled(el);
    expect(part(el, 'error')!.textContent).to.contain('not set up correctly');
    expect(part(el, 'retry-button'), 'retrying cannot fix a missing attribute').to.equal(null);
    el.requestUpdate();
    await el.updateComplete;
    expect(warnings.about('campaign-id')).to.have.length(1);
    expect(warnings.about('campaign-id')[0]).to.contain('<coupon-claim>');
    await expect(el).to.be.accessible();

    el.setAttribute('campaign-id', LATTE);
    await waitUntil(() => part(el, 'claim-button'), 'recovers once the attribute is set', { timeout: 8000 });
    expect(part(el, 'error')).to.equal(null);
  });

  it('an endpoint that is not a web address is a set-up error, not "check your connection", and nothing is fetched', async () => {
    const el = await fixture<CouponClaim>(
      html`<coupon-claim endpoint="javascript:alert(1)" campaign-id=${LATTE}></coupon-claim>`,
    );
    await settled(el);
    expect(part(el, 'error')!.textContent).to.contain('not set up correctly');
    expect(textOf(el)).not.to.contain('connection');
    expect(warnings.about('javascript:alert(1)')).to.have.length(1);
    expect(fetches.calls).to.have.length(0);

    el.setAttribute('endpoint', '/api/marketing');
    await waitUntil(() => part(el, 'claim-button'), 'recovers with a good endpoint', { timeout: 8000 });
  });

  it('a limit that is not 1 to 50 loads the default page size and warns once, naming the value', async () => {
    for (const limit of ['abc', '0', '999']) {
      const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit=${limit}></campaign-carousel>`);
      await settled(el);
      expect(part(el, 'slide'), `limit="${limit}" still shows campaigns`).not.to.equal(null);
      el.requestUpdate();
      await el.updateComplete;
      expect(warnings.about(`limit="${limit}"`), limit).to.have.length(1);
    }
    expect(fetches.of('campaigns').map((call) => call.variables.limit)).to.deep.equal([6, 6, 6]);
    const directory = await fixture(html`<business-directory limit="-1"></business-directory>`);
    await settled(directory);
    expect(warnings.about('<business-directory> limit="-1"')).to.have.length(1);
  });

  it('a negative or non-numeric autoplay keeps rotation off and warns', async () => {
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel autoplay="-3"></campaign-carousel>`);
    await settled(el);
    expect(part(el, 'rotation-button')).to.equal(null);
    expect(warnings.about('autoplay="-3"')).to.have.length(1);
    const fine = await fixture<CampaignCarousel>(html`<campaign-carousel autoplay="0"></campaign-carousel>`);
    await settled(fine);
    expect(warnings.about('autoplay="0"'), 'zero is a clear "off"').to.have.length(0);
  });

  it('a lower-case currency still formats; an unknown one shows the price as given and warns', async () => {
    const lower = await fixture<CouponClaim>(html`<coupon-claim campaign-id=${LATTE} currency="eur"></coupon-claim>`);
    await settled(lower);
    expect(part(lower, 'price')!.textContent).to.equal('€2.50');
    expect(warnings.messages).to.have.length(0);
    for (const currency of ['XYZ', 'EURO']) {
      const el = await fixture<CouponClaim>(
        html`<coupon-claim campaign-id=${LATTE} currency=${currency}></coupon-claim>`,
      );
      await settled(el);
      expect(part(el, 'price')!.textContent, currency).to.equal('2.50');
      expect(warnings.about(`currency="${currency}"`), currency).to.have.length(1);
    }
    await aTimeout(0);
  });
});
