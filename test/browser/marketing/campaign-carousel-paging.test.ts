import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import { scriptPages, wireCampaign } from './helpers.ts';
import { part, showsOneOf } from '../parts.ts';

/** How many pages that show nothing a list reads in a row before it waits (documented on `limit`). */
const MAX_EMPTY_PAGES = 5;

// Pages as an upstream that filters after reading gives them (short, empty, with or without a cursor).
const titles = (el: CampaignCarousel) =>
  [...el.shadowRoot!.querySelectorAll('[part~="slide"] [part~="title"]')].map((title) => title.textContent);
const nextButton = (el: CampaignCarousel) => part<HTMLButtonElement>(el, 'next-button') as HTMLButtonElement;

const loaded = (el: CampaignCarousel) => showsOneOf(el, ['slide', 'empty', 'error']);

/** Clicks next until it is disabled (or `most` clicks), letting each load finish. */
async function clickThrough(el: CampaignCarousel, most = 20): Promise<void> {
  for (let click = 0; click < most && !nextButton(el).disabled; click++) {
    nextButton(el).click();
    await aTimeout(150);
    await waitUntil(() => !part(el, 'skeleton'), 'a page is still loading', { timeout: 5000 });
  }
}

describe('<campaign-carousel> paging through short and empty pages', () => {
  let script: ReturnType<typeof scriptPages> | undefined;
  afterEach(() => script?.restore());

  it('reads on past an empty first page that carries a nextToken', async () => {
    script = scriptPages('campaigns', [[], [], [wireCampaign('a'), wireCampaign('b')]]);
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="3"></campaign-carousel>`);
    await loaded(el);
    expect(titles(el)).to.deep.equal(['Campaign a', 'Campaign b']);
    expect(part(el, 'empty')).to.equal(null);
    expect(script.asked).to.deep.equal([null, 'page-1', 'page-2']);
  });

  it('keeps loading through an empty page in the middle, ends on an empty last page, and the next button is never dead', async () => {
    script = scriptPages('campaigns', [[wireCampaign('a'), wireCampaign('b')], [], [wireCampaign('c')], []]);
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel limit="3" style="--loyalty-carousel-slide-width: 100%"></campaign-carousel>`,
    );
    await loaded(el);
    await clickThrough(el);
    expect(titles(el)).to.deep.equal(['Campaign a', 'Campaign b', 'Campaign c']);
    expect(script.asked).to.deep.equal([null, 'page-1', 'page-2', 'page-3']);
    expect(nextButton(el).disabled, 'at the end of the last page the next button is off').to.equal(true);
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.match(/^3 of 3: /);
  });

  it(`stops after ${MAX_EMPTY_PAGES} empty pages in a row, and its next button reads on when pressed`, async () => {
    script = scriptPages('campaigns', [[wireCampaign('a')]], { endless: true });
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel limit="3" style="--loyalty-carousel-slide-width: 100%"></campaign-carousel>`,
    );
    await loaded(el);
    await waitUntil(() => script!.asked.length === 1 + MAX_EMPTY_PAGES, 'the last slide in view reads on', {
      timeout: 5000,
    });
    await aTimeout(400);
    expect(script.asked, 'then it waits').to.have.length(1 + MAX_EMPTY_PAGES);
    expect(nextButton(el).disabled, 'more may come').to.equal(false);
    nextButton(el).click();
    await waitUntil(
      () => script!.asked.length === 1 + 2 * MAX_EMPTY_PAGES,
      'the next button reads the following pages',
      { timeout: 5000 },
    );
    expect(titles(el)).to.deep.equal(['Campaign a']);
  });

  it(`never says "no campaigns" while a cursor remains: after ${MAX_EMPTY_PAGES} empty pages it says none was found yet and offers to keep looking`, async () => {
    script = scriptPages('campaigns', [], { endless: true });
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="3"></campaign-carousel>`);
    await loaded(el);
    expect(script.asked).to.have.length(MAX_EMPTY_PAGES);
    const status = () => el.shadowRoot!.querySelector('[role="status"]')!.textContent!;
    expect(part(el, 'empty')!.textContent).to.match(/No campaigns found yet/);
    expect(status()).to.equal('No campaigns found yet. There are more to look through.');
    expect(status()).to.not.match(/No campaigns right now/);
    const keepLooking = part<HTMLButtonElement>(el, 'keep-looking-button')!;
    expect(keepLooking.textContent!.trim()).to.equal('Keep looking');
    await expect(el).to.be.accessible();
    keepLooking.click();
    await waitUntil(() => script!.asked.length === 2 * MAX_EMPTY_PAGES, 'it reads the following pages', {
      timeout: 5000,
    });
    await waitUntil(() => part(el, 'keep-looking-button')?.getAttribute('aria-disabled') === 'false');
    expect(part(el, 'keep-looking-button'), 'still a way on').to.not.equal(null);
  });

  it('tells the shopper that more is being looked for while it reads past empty pages, then shows what it found', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    script = scriptPages('campaigns', [[], [], [wireCampaign('late')]], {
      answer: (index) => (index === 2 ? held : Promise.resolve()),
    });
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="3"></campaign-carousel>`);
    const status = () => el.shadowRoot!.querySelector('[role="status"]')!.textContent!;
    await waitUntil(() => status() === 'Looking for more campaigns…', 'the search is announced', { timeout: 5000 });
    expect(part(el, 'empty')).to.equal(null);
    release();
    await loaded(el);
    expect(titles(el)).to.deep.equal(['Campaign late']);
  });

  it('says "no campaigns" once the list has ended', async () => {
    script = scriptPages('campaigns', [[], []]);
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="3"></campaign-carousel>`);
    await loaded(el);
    expect(part(el, 'empty')!.textContent).to.match(/No campaigns right now/);
    expect(part(el, 'keep-looking-button')).to.equal(null);
  });
});
