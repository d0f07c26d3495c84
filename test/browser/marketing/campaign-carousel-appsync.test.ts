import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import type { SandboxStats } from '../../../src/sandbox/index.ts';
import { part, parts, showsOneOf } from '../parts.ts';

// The carousel through the proxy in front of the appsync-flavoured sandbox: scan-then-filter pages
// (short, empty, with a nextToken), nulls, numeric prices and an objective type the widgets do not know.
const ENDPOINT = '/api/appsync/marketing';
const titles = (el: CampaignCarousel) =>
  [...el.shadowRoot!.querySelectorAll('[part~="slide"] [part~="title"]')].map((title) => title.textContent);
const nextButton = (el: CampaignCarousel) => part<HTMLButtonElement>(el, 'next-button') as HTMLButtonElement;
/** The failure message shown, if any (as text, so a failed expectation says what went wrong). */
const failure = (el: CampaignCarousel) => part(el, 'error')?.textContent?.trim() ?? null;

const loaded = (el: CampaignCarousel) => showsOneOf(el, ['slide', 'empty', 'error']);

async function appsyncStats(): Promise<SandboxStats> {
  return (await (await fetch('/__sandbox/appsync/stats')).json()) as SandboxStats;
}

/** Clicks next until it is disabled, letting each load finish. */
async function clickThrough(el: CampaignCarousel, most = 40): Promise<void> {
  for (let click = 0; click < most && nextButton(el) && !nextButton(el).disabled; click++) {
    nextButton(el).click();
    await aTimeout(100);
    await waitUntil(() => !part(el, 'skeleton'), 'a page is still loading', { timeout: 8000 });
  }
}

describe('<campaign-carousel> over an AppSync-shaped Marketing API', () => {
  it('shows every campaign of one business account through sparse pages, then stops', async () => {
    const before = (await appsyncStats()).byOperation.campaigns ?? 0;
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel endpoint=${ENDPOINT} business-account-id="biz-harbor-coffee" limit="2" currency="EUR" style="--loyalty-carousel-slide-width: 100%"></campaign-carousel>`,
    );
    await loaded(el);
    expect(failure(el)).to.equal(null);
    await clickThrough(el);
    expect([...titles(el)].sort()).to.deep.equal([
      '20% off whole beans',
      'A pastry on us',
      'Morning latte for less',
      'Saturday cupping session',
      'Your tenth cup is free',
    ]);
    expect(nextButton(el).disabled, 'no dead next button at the end').to.equal(true);
    expect(failure(el)).to.equal(null);
    const latte = parts(el, 'slide').find(
      (slide) => slide.querySelector('[part~="title"]')!.textContent === 'Morning latte for less',
    )!;
    expect(latte.querySelector('[part~="price"]')!.textContent, 'a numeric price').to.equal('€2.50');
    expect(
      (await appsyncStats()).byOperation.campaigns ?? 0,
      'the pages came from the appsync sandbox',
    ).to.be.greaterThan(before);
  });

  it('shows the program’s campaigns, records with nulls and unknown objectives included, accessibly', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel endpoint=${ENDPOINT} business-account-id="biz-crumb-bakery" limit="5"></campaign-carousel>`,
    );
    await loaded(el);
    await clickThrough(el);
    expect(failure(el)).to.equal(null);
    expect(titles(el)).to.include.members(['Sourdough Saturday', 'Tell us your favourite loaf']);
    const survey = parts(el, 'slide').find(
      (slide) => slide.querySelector('[part~="title"]')!.textContent === 'Tell us your favourite loaf',
    )!;
    expect(survey.querySelector('[part~="price"]'), 'an objective the widgets do not know has no price').to.equal(null);
    await expect(el).to.be.accessible();
  });
});
