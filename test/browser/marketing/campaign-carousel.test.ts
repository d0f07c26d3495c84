import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { emulateMedia, resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import '../../../src/elements/campaign-carousel/index.ts';
import type { CampaignCarousel } from '../../../src/elements/campaign-carousel/index.ts';
import { clearStoredClaims, hangFetch, recordFetches } from './helpers.ts';
import { onlyIn } from '../engine.ts';
import { HOSTILE_ACCOUNT_ID, HOSTILE_TEXT } from './hostile-seed.ts';
import { part, inShadow, allInShadow, showsOneOf } from '../parts.ts';

const slides = (el: CampaignCarousel) => allInShadow(el, '[part~="slide"]');
const focusedIndex = (el: CampaignCarousel) =>
  Number(el.shadowRoot!.activeElement?.closest<HTMLElement>('[data-index]')?.dataset.index);
/** The slide nearest the track's start edge, as the shopper sees it. */
function currentIndex(el: CampaignCarousel): number {
  const start = part(el, 'slides')!.getBoundingClientRect().left;
  const distances = slides(el).map((slide) => Math.abs(slide.getBoundingClientRect().left - start));
  return distances.indexOf(Math.min(...distances));
}
/** The button that chooses a slide's campaign. */
const titleButton = (slide: HTMLElement) => slide.querySelector<HTMLButtonElement>('[part~="title-button"]')!;

const loaded = (el: CampaignCarousel) => showsOneOf(el, ['slide', 'empty', 'error']);

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * The next intersection update of `target` in the carousel's track that meets `accept`. The
 * carousel's own observers were created earlier, so the browser notified them in the same update,
 * first: whatever they start has started by the time this resolves.
 */
function intersection(
  el: CampaignCarousel,
  target: Element,
  accept: (entry: IntersectionObserverEntry) => boolean = () => true,
  threshold = 0,
): Promise<IntersectionObserverEntry> {
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.find(accept);
        if (!entry) return;
        observer.disconnect();
        resolve(entry);
      },
      { root: part(el, 'slides'), threshold },
    );
    observer.observe(target);
  });
}

/**
 * Resolves once a rotation timer of `seconds` that the carousel set before this call has fired and
 * its slide change has had frames to render (an instant scroll under prefers-reduced-motion, where no
 * carousel beside it could rotate): timers of one delay fire in the order they were set, whatever
 * the machine's speed.
 */
async function rotationTimerPassed(seconds: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  for (let count = 0; count < 3; count += 1) await frame();
}

/** How far the carousel's track has scrolled since now, in slides (a rotation scrolls it by one). */
function watchTrack(el: CampaignCarousel): { scrolled: () => number } {
  const track = part(el, 'slides')!;
  const start = track.scrollLeft;
  return { scrolled: () => Math.abs(track.scrollLeft - start) / slides(el)[0]!.getBoundingClientRect().width };
}

/**
 * Starts a carousel that rotates every second beside the one under test and waits until it has
 * rotated and scrolled a whole slide: its timer was set after any the carousel under test had set,
 * so by then a carousel that rotates would have rotated and scrolled as far, however slow the machine.
 */
async function rotatedBeside(): Promise<void> {
  const beside = document.createElement('campaign-carousel') as CampaignCarousel;
  beside.setAttribute('limit', '4');
  beside.setAttribute('autoplay', '1');
  document.body.append(beside);
  try {
    await loaded(beside);
    const track = watchTrack(beside);
    await waitUntil(
      () => currentIndex(beside) === 1 && track.scrolled() > 0.99,
      'the carousel beside it rotated to its second slide',
      { timeout: 8000 },
    );
  } finally {
    beside.remove();
  }
}

function slideOf(el: CampaignCarousel, title: string): HTMLElement {
  const found = slides(el).find((slide) => slide.querySelector('[part~="title"]')?.textContent === title);
  if (!found) throw new Error(`no slide "${title}"`);
  return found;
}

describe('<campaign-carousel>', () => {
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => {
    clearStoredClaims();
    fetches = recordFetches();
  });
  afterEach(() => fetches.restore());

  it('renders the WAI-ARIA carousel pattern with each campaign as text', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id="biz-harbor-coffee" limit="10" currency="EUR"></campaign-carousel>`,
    );
    await loaded(el);
    const region = part(el, 'base')!;
    expect(region.localName).to.equal('section');
    expect([region.getAttribute('aria-roledescription'), region.getAttribute('aria-label')]).to.deep.equal([
      'carousel',
      'Campaigns',
    ]);
    const list = slides(el);
    expect(list).to.have.length(5);
    expect(
      list.map((s) => [
        s.getAttribute('role'),
        s.getAttribute('aria-roledescription'),
        s.getAttribute('aria-label'),
      ])[2],
    ).to.deep.equal(['group', 'slide', '3 of 5']);
    const latte = slideOf(el, 'Morning latte for less');
    expect(latte.querySelector('[part~="subtitle"]')!.textContent).to.equal('Before 10 am, every weekday');
    expect(latte.querySelector('[part~="description"]')!.textContent).to.contain('any size latte');
    expect(latte.querySelector('[part~="price"]')!.textContent).to.equal('€2.50');
    expect(slideOf(el, 'A pastry on us').querySelector('[part~="price"]')!.textContent).to.equal('Free with any order');
    expect(
      slideOf(el, 'Your tenth cup is free').querySelector('[part~="price"]'),
      'other objectives have no price',
    ).to.equal(null);
    for (const name of ['previous-button', 'next-button'])
      expect(inShadow(el, `button[part~="${name}"]`)!.getAttribute('aria-controls')).to.equal('slides');
    expect(part(el, 'rotation-button'), 'no autoplay by default').to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('asks for images at the widths the proxy offers, lazily, in a box reserved at 16:9', async () => {
    // A business account no other test shows, so the browser cannot reuse a larger cached rendition.
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id="biz-peak-outfitters" limit="2"></campaign-carousel>`,
    );
    await loaded(el);
    const image = part<HTMLImageElement>(el, 'image') as HTMLImageElement;
    const candidates = image.srcset.split(', ').map((entry) => entry.split(' '));
    expect(candidates.map(([, width]) => width)).to.deep.equal(['320w', '640w', '960w', '1280w']);
    for (const [url, width] of candidates) expect(url).to.contain(`w=${parseInt(width!, 10)}`);
    expect(image.sizes.startsWith('auto')).to.equal(true);
    expect([image.loading, image.getAttribute('width'), image.getAttribute('height'), image.alt]).to.deep.equal([
      'lazy',
      '1600',
      '900',
      '',
    ]);
    const box = part(el, 'media')!.getBoundingClientRect();
    expect(box.height).to.be.closeTo((box.width * 9) / 16, 1);
    await waitUntil(() => image.complete && image.currentSrc, 'the first image did not load', { timeout: 8000 });
    // The browser picked the smallest rendition that covers the slide at this device pixel ratio.
    const picked = Number(new URL(image.currentSrc).searchParams.get('w'));
    const needed = image.getBoundingClientRect().width * devicePixelRatio;
    const widths = candidates.map(([, width]) => parseInt(width!, 10));
    expect(picked).to.equal(widths.find((width) => width >= needed) ?? 1280);
    expect(part(el, 'media')!.getBoundingClientRect().height, 'no layout shift once loaded').to.be.closeTo(
      box.height,
      0.5,
    );
  });

  it('loads the next page only when the shopper reaches the last slide', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel limit="3" style="--loyalty-carousel-slide-width: 100%"></campaign-carousel>`,
    );
    await loaded(el);
    await intersection(el, slides(el).at(-1)!);
    expect(fetches.of('campaigns'), 'nothing more before the end').to.have.length(1);
    const next = part<HTMLButtonElement>(el, 'next-button')!;
    next.click();
    await intersection(el, slides(el)[1]!, (entry) => entry.intersectionRatio >= 0.9, 0.9);
    expect(fetches.of('campaigns'), 'still nothing more on slide 2, in view').to.have.length(1);
    next.click();
    await waitUntil(() => slides(el).length === 6, 'the second page did not load', { timeout: 8000 });
    expect(fetches.of('campaigns')[1]!.variables).to.deep.include({ limit: 3 });
    expect(fetches.of('campaigns')[1]!.variables.nextToken).to.be.a('string');
    expect(slides(el)[3]!.getAttribute('aria-label')).to.equal('4 of 6');
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.match(/^3 of 3: /);
  });

  it('shows a failed next page at the end of the track, retries only when asked, then continues', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel limit="3" style="--loyalty-carousel-slide-width: 100%"></campaign-carousel>`,
    );
    await loaded(el);
    fetches.loseResponses(1);
    titleButton(slides(el)[0]!).focus();
    await sendKeys({ press: 'End' });
    await waitUntil(() => inShadow(el, '[part~="slides"] [part~="error"]'), 'the failed page is shown', {
      timeout: 5000,
    });
    // The track as it is with the failure shown has been observed (the carousel's observer first).
    await intersection(el, inShadow(el, '[part~="slides"] [part~="error"]')!);
    await intersection(el, slides(el).at(-1)!);
    await frame();
    expect(fetches.of('campaigns'), 'no automatic retries').to.have.length(2);
    expect(slides(el)).to.have.length(3);
    inShadow(el, '[part~="slides"] [part~="retry-button"]')!.click();
    await waitUntil(() => slides(el).length === 6, 'the retry loads the page', { timeout: 5000 });
    expect(fetches.of('campaigns')[2]!.variables.nextToken).to.equal(fetches.of('campaigns')[1]!.variables.nextToken);
  });

  it('follows a swipe: scrolling the track moves the current slide and the buttons’ states', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id="biz-harbor-coffee" limit="10"></campaign-carousel>`,
    );
    await loaded(el);
    const previous = part<HTMLButtonElement>(el, 'previous-button') as HTMLButtonElement;
    const next = part<HTMLButtonElement>(el, 'next-button') as HTMLButtonElement;
    expect([previous.disabled, next.disabled]).to.deep.equal([true, false]);
    const track = part(el, 'slides')!;
    expect(getComputedStyle(track).scrollSnapType).to.equal('x mandatory');
    track.scrollTo({ left: track.scrollWidth, behavior: 'instant' });
    await waitUntil(() => next.disabled, 'at the end, "next" is disabled', { timeout: 3000 });
    expect(previous.disabled).to.equal(false);
    expect(currentIndex(el)).to.be.greaterThan(0);
    expect(fetches.of('campaigns'), 'no next page to load').to.have.length(1);
  });

  it('shows no scrollbar under the slides in any engine: the buttons, keys and swipes move them', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id="biz-harbor-coffee" limit="10"></campaign-carousel>`,
    );
    await loaded(el);
    const track = part(el, 'slides')!;
    expect(track.scrollWidth, 'the track does scroll').to.be.greaterThan(track.clientWidth);
    // A classic scrollbar takes layout space (Firefox, WebKit without overlay scrollbars); an overlay
    // one (WebKitGTK, Chromium) takes none but still shows while scrolling, so the style is pinned too.
    expect(track.offsetHeight - track.clientHeight, 'no scrollbar takes space').to.equal(0);
    expect(getComputedStyle(track).scrollbarWidth).to.equal('none');
  });

  it('shares one network request between carousels showing the same campaigns', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><campaign-carousel limit="4"></campaign-carousel><campaign-carousel limit="4"></campaign-carousel></div>`,
    );
    const [a, b] = [...wrapper.querySelectorAll('campaign-carousel')] as CampaignCarousel[];
    await loaded(a!);
    await loaded(b!);
    expect(fetches.of('campaigns')).to.have.length(1);
    expect(slides(a!).map((s) => s.textContent)).to.deep.equal(slides(b!).map((s) => s.textContent));
  });

  it('moves between the slides’ buttons with the arrow keys, Home and End, and selects with Enter or a click', async () => {
    // Narrower than four slides whatever the engine's window, so the last slide is not in view
    // (which would load the next page) before End is pressed.
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel limit="4" style="max-inline-size: 48rem"></campaign-carousel>`,
    );
    await loaded(el);
    titleButton(slides(el)[0]!).focus();
    await sendKeys({ press: 'ArrowRight' });
    expect(focusedIndex(el)).to.equal(1);
    await waitUntil(() => currentIndex(el) === 1, 'slide 2 is the current one', { timeout: 4000 });
    await sendKeys({ press: 'End' });
    expect(focusedIndex(el)).to.equal(3);
    await sendKeys({ press: 'ArrowLeft' });
    expect(focusedIndex(el)).to.equal(2);
    await sendKeys({ press: 'Home' });
    expect(focusedIndex(el)).to.equal(0);
    const selected = oneEvent(el, 'campaign-select');
    await sendKeys({ press: 'Enter' });
    const { detail } = await selected;
    expect(detail.campaign.title).to.equal(slides(el)[0]!.querySelector('[part~="title"]')!.textContent);
    const clicked = oneEvent(el, 'campaign-select');
    slides(el)[1]!.querySelector<HTMLElement>('[part~="description"]')!.click();
    expect((await clicked).detail.campaign.id)
      .to.be.a('string')
      .and.not.equal(detail.campaign.id);
  });

  it('reverses arrow keys and scrolling right to left', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div dir="rtl" lang="ar"><campaign-carousel limit="4"></campaign-carousel></div>`,
    );
    const el = wrapper.querySelector('campaign-carousel')!;
    await loaded(el);
    expect(part(el, 'base')!.getAttribute('aria-label')).to.equal('الحملات');
    expect(slides(el)[0]!.getAttribute('aria-label')).to.equal('1 من 4');
    const track = part(el, 'slides')!;
    expect(slides(el)[1]!.getBoundingClientRect().right).to.be.below(slides(el)[0]!.getBoundingClientRect().left + 1);
    const previous = part<HTMLButtonElement>(el, 'previous-button')!;
    const next = part<HTMLButtonElement>(el, 'next-button')!;
    expect(previous.getBoundingClientRect().left, 'previous sits on the right').to.be.above(
      next.getBoundingClientRect().left,
    );
    expect(
      getComputedStyle(previous.querySelector('.arrow')!).transform,
      'its arrow is flipped to point right',
    ).to.equal('matrix(-1, 0, 0, 1, 0, 0)');
    titleButton(slides(el)[0]!).focus();
    await sendKeys({ press: 'ArrowLeft' });
    expect(focusedIndex(el)).to.equal(1);
    await sendKeys({ press: 'ArrowRight' });
    expect(focusedIndex(el)).to.equal(0);
    part<HTMLButtonElement>(el, 'next-button')!.click();
    await waitUntil(() => track.scrollLeft < -10, 'the track did not scroll towards the left', { timeout: 3000 });
    await expect(el).to.be.accessible();
  });

  it('rotates only when asked, stops when focus enters, and has its own stop/start button', async () => {
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="4" autoplay="1"></campaign-carousel>`);
    await loaded(el);
    const rotation = () => part<HTMLButtonElement>(el, 'rotation-button')!;
    expect(rotation().getAttribute('aria-label')).to.equal('Stop automatic slide show');
    expect(allInShadow(el, 'button').indexOf(rotation()), 'the rotation button comes first').to.equal(0);
    await waitUntil(() => currentIndex(el) === 1, 'the carousel did not rotate', { timeout: 4000 });
    titleButton(slides(el)[1]!).focus();
    await el.updateComplete;
    expect(rotation().getAttribute('aria-label')).to.equal('Start automatic slide show');
    rotation().click();
    await el.updateComplete;
    expect(rotation().getAttribute('aria-label')).to.equal('Stop automatic slide show');
    await expect(el).to.be.accessible();
  });

  it('stops rotation with one real click on its button, for good, and starts it with a second', async () => {
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="4" autoplay="1"></campaign-carousel>`);
    await loaded(el);
    const rotation = () => part<HTMLButtonElement>(el, 'rotation-button')!;
    const clickRotation = async () => {
      const box = rotation().getBoundingClientRect();
      await sendMouse({
        type: 'click',
        position: [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)],
      });
      await sendMouse({ type: 'move', position: [0, 0] });
      await el.updateComplete;
    };
    try {
      // Chromium focuses the button on mousedown; that focus must not undo the click that follows.
      await clickRotation();
      expect(rotation().getAttribute('aria-label'), 'one click stops it').to.equal('Start automatic slide show');
      const stoppedAt = currentIndex(el);
      const track = watchTrack(el);
      await rotatedBeside();
      expect(currentIndex(el), 'no rotation once the pointer has left').to.equal(stoppedAt);
      expect(track.scrolled(), 'the track stays still').to.be.lessThan(0.5);
      expect(rotation().getAttribute('aria-label')).to.equal('Start automatic slide show');
      await clickRotation();
      expect(rotation().getAttribute('aria-label'), 'a second click starts it again').to.equal(
        'Stop automatic slide show',
      );
      await waitUntil(() => currentIndex(el) !== stoppedAt, 'rotation did not start again', { timeout: 4000 });
    } finally {
      await resetMouse();
    }
  });

  it('pauses rotation while the pointer is over it', async () => {
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="4" autoplay="1"></campaign-carousel>`);
    await loaded(el);
    const box = el.getBoundingClientRect();
    await sendMouse({
      type: 'move',
      position: [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)],
    });
    try {
      const track = watchTrack(el);
      await rotatedBeside();
      expect(currentIndex(el), 'no rotation under the pointer').to.equal(0);
      expect(track.scrolled(), 'the track stays still').to.be.lessThan(0.5);
      expect(part<HTMLButtonElement>(el, 'rotation-button')!.getAttribute('aria-label')).to.equal(
        'Stop automatic slide show',
      );
      // The pointer leaves (a reset alone moves nothing in every engine's automation).
      await sendMouse({ type: 'move', position: [0, 0] });
    } finally {
      await resetMouse();
    }
    await waitUntil(() => currentIndex(el) === 1, 'rotation resumes when the pointer leaves', { timeout: 4000 });
  });

  // Media emulation goes through the DevTools protocol, which only Chromium's automation speaks.
  onlyIn('chromium')('never rotates under prefers-reduced-motion', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      const el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="4" autoplay="1"></campaign-carousel>`);
      await loaded(el);
      expect(part(el, 'rotation-button')).to.equal(null);
      const track = watchTrack(el);
      await rotationTimerPassed(1);
      expect(currentIndex(el)).to.equal(0);
      expect(track.scrolled(), 'the track stays still').to.be.lessThan(0.5);
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('puts a coupon claim on coupon campaigns with `claim`, without fetching the campaigns again', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id="biz-harbor-coffee" claim></campaign-carousel>`,
    );
    await loaded(el);
    const latte = slideOf(el, 'Morning latte for less').querySelector('coupon-claim')!;
    expect(latte.hasAttribute('compact')).to.equal(true);
    expect(slideOf(el, 'Your tenth cup is free').querySelector('coupon-claim')).to.equal(null);
    await waitUntil(() => latte.shadowRoot?.querySelector('[part~="claim-button"]'), 'claim button', { timeout: 5000 });
    expect(fetches.of('campaign')).to.have.length(0);
    let selected = 0;
    el.addEventListener('campaign-select', () => selected++);
    const claimed = oneEvent(el, 'coupon-claimed');
    part<HTMLElement>(latte, 'claim-button')!.click();
    expect((await claimed).detail.campaignId).to.equal('camp-harbor-morning-latte');
    expect(selected, 'claiming does not select the slide').to.equal(0);
    await expect(el).to.be.accessible();
  });

  it('renders hostile text as text and drops an unsafe image URL', async () => {
    const el = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id=${HOSTILE_ACCOUNT_ID}></campaign-carousel>`,
    );
    await loaded(el);
    const [slide] = slides(el);
    expect(slide!.querySelector('[part~="title"]')!.textContent).to.equal(`Hostile ${HOSTILE_TEXT}`);
    expect(slide!.querySelector('[part~="subtitle"]')!.textContent).to.equal('<script>window.__pwned=1</script>');
    expect(slide!.querySelector('[part~="price"]')!.textContent).to.equal('<b>3</b>');
    expect(slide!.querySelector('img, script, b, [onerror]')).to.equal(null);
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('shows an empty state, and a localized failure whose retry works', async () => {
    const empty = await fixture<CampaignCarousel>(
      html`<campaign-carousel business-account-id="biz-with-no-campaigns"></campaign-carousel>`,
    );
    await loaded(empty);
    expect(part(empty, 'empty')!.textContent).to.equal('No campaigns right now. Come back soon!');
    await expect(empty).to.be.accessible();

    fetches.loseResponses(1);
    const el = await fixture<CampaignCarousel>(html`<campaign-carousel lang="fr" limit="2"></campaign-carousel>`);
    await loaded(el);
    expect(part(el, 'error')!.textContent).to.contain('Le service de fidélité est injoignable');
    await expect(el).to.be.accessible();
    part(el, 'retry-button')!.click();
    await waitUntil(() => slides(el).length >= 2, 'retry loads', { timeout: 5000 });
    expect(slides(el)[0]!.getAttribute('aria-label')).to.match(/^1 sur \d+$/);
  });

  it('shows a skeleton while loading, aborts its request when removed, and loads again when put back', async () => {
    // A proxy that never answers, so the request is surely in flight when the element leaves.
    const network = hangFetch();
    const { signals } = network;
    let el: CampaignCarousel;
    let loadingHeight = 0;
    try {
      el = await fixture<CampaignCarousel>(html`<campaign-carousel limit="7"></campaign-carousel>`);
      expect(part(el, 'base')!.getAttribute('aria-busy')).to.equal('true');
      expect(allInShadow(el, '[part~="skeleton"]').length).to.be.greaterThan(0);
      loadingHeight = el.getBoundingClientRect().height;
      await expect(el).to.be.accessible();
      expect(signals).to.have.length(1);
      const parent = el.parentElement!;
      el.remove();
      expect(signals[0]!.aborted, 'leaving the page aborts the request').to.equal(true);
      network.restore();
      parent.append(el);
    } finally {
      network.restore();
    }
    await loaded(el);
    expect(slides(el).length).to.be.at.least(7);
    expect(part(el, 'base')!.getAttribute('aria-busy')).to.equal('false');
    expect(part(el, 'error')).to.equal(null);
    // The placeholders are exactly as tall as the slides, so the page below does not move when campaigns arrive.
    expect(el.getBoundingClientRect().height).to.be.closeTo(loadingHeight, 0.5);
  });
});
