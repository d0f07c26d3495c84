/**
 * WCAG 4.1.3 (status messages): each state change an element shows is also said in a live region
 * that was on the page before the change (a region added with its text already in it is often not
 * announced), or in an alert.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import { part } from '../parts.ts';
import { clearStoredClaims, holdFetch } from '../marketing/helpers.ts';

const liveRegion = (el: Element) => el.shadowRoot!.querySelector('[role="status"]');
const said = (el: Element) => liveRegion(el)?.textContent?.trim() ?? '';

/** Renders `template` with the network held, and returns the element and its live region while loading. */
async function whileLoading(template: ReturnType<typeof html>) {
  const network = holdFetch();
  try {
    const el = await fixture(template);
    await (el as Element & { updateComplete: Promise<unknown> }).updateComplete;
    const region = liveRegion(el);
    expect(region, `<${el.localName}> has a live region while it loads`).to.not.equal(null);
    expect(said(el), 'it says nothing yet').to.equal('');
    return { el, region };
  } finally {
    network.release();
  }
}

describe('state changes are announced', () => {
  beforeEach(clearStoredClaims);

  const cases = [
    {
      change: 'a carousel with no campaigns',
      template: () => html`<campaign-carousel business-account-id="biz-without-campaigns"></campaign-carousel>`,
      says: 'No campaigns right now. Come back soon!',
    },
    {
      change: 'a directory with no businesses',
      template: () => html`<business-directory category="No such category"></business-directory>`,
      says: 'No businesses to show yet.',
    },
    {
      change: 'a directory that loaded',
      template: () => html`<business-directory limit="3"></business-directory>`,
      says: /^\d+ businesses shown$/,
    },
  ];
  for (const { change, template, says } of cases) {
    it(`${change}, in the live region that was there while it loaded`, async () => {
      const { el, region } = await whileLoading(template());
      await waitUntil(() => said(el) !== '', `<${el.localName}> said nothing`, { timeout: 8000 });
      expect(liveRegion(el) === region, 'the same live region, not a new one').to.equal(true);
      if (typeof says === 'string') expect(said(el)).to.equal(says);
      else expect(said(el)).to.match(says);
    });
  }

  it('a carousel’s new slide after "next"', async () => {
    const el = await fixture(html`<campaign-carousel limit="4"></campaign-carousel>`);
    await waitUntil(() => part(el, 'slide'), 'no slides', { timeout: 8000 });
    const region = liveRegion(el);
    part(el, 'next-button')!.click();
    await waitUntil(() => said(el).startsWith('2 of 4: '), `said "${said(el)}"`, { timeout: 3000 });
    expect(liveRegion(el) === region).to.equal(true);
  });

  it('a claimed coupon’s code', async () => {
    const el = await fixture(html`<coupon-claim campaign-id="camp-harbor-morning-latte"></coupon-claim>`);
    await waitUntil(() => part(el, 'claim-button'), 'no claim button', { timeout: 8000 });
    const region = liveRegion(el);
    part(el, 'claim-button')!.click();
    await waitUntil(() => part(el, 'code'), 'no code', { timeout: 8000 });
    await waitUntil(() => said(el).includes(part(el, 'code')!.textContent!), `said "${said(el)}"`);
    expect(liveRegion(el) === region).to.equal(true);
  });

  it('a failure, as an alert', async () => {
    const el = await fixture(html`<coupon-claim campaign-id="no-such-campaign"></coupon-claim>`);
    await waitUntil(() => part(el, 'error'), 'no failure shown', { timeout: 8000 });
    expect(part(el, 'error')!.getAttribute('role')).to.equal('alert');
    expect(part(el, 'error')!.textContent!.trim()).to.not.equal('');
  });
});
