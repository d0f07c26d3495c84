import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import { FONT_FAMILIES, type FontFamily } from '../../support/font-families.ts';
import { clearStoredClaims, holdFetch } from './helpers.ts';

/**
 * What an element shows while loading is exactly as tall as what replaces it, in a wide and in a
 * narrow font: its text has fixed line heights and a fixed number of lines per field, so a
 * merchant's page below it never moves, whatever font the page uses.
 */

/** Fails unless `font` is installed: text set in it measures the same whichever generic family it would fall back to. */
function expectInstalled(font: FontFamily): void {
  const context = document.createElement('canvas').getContext('2d')!;
  const width = (fallback: string) => {
    context.font = `32px "${font.family}", ${fallback}`;
    return context.measureText('The quick brown fox, 0123456789 Wm').width;
  };
  expect(width('monospace'), `${font.family} is not installed (Debian: ${font.debianPackage})`).to.equal(
    width('serif'),
  );
}

const heightOf = (el: Element) => el.getBoundingClientRect().height;
const inShadow = (el: Element, selector: string) => el.shadowRoot?.querySelector(selector) ?? null;

/** The element's height on its skeleton, then once its content has arrived. */
async function loadingThenLoaded(template: ReturnType<typeof html>, loadedSelector: string): Promise<[number, number]> {
  const network = holdFetch();
  let el: Element;
  let loading: number;
  try {
    el = await fixture(template);
    await waitUntil(() => inShadow(el, '[part~="skeleton"]'), 'no skeleton while loading');
    loading = heightOf(el);
  } finally {
    network.release();
  }
  await waitUntil(() => inShadow(el, loadedSelector), 'the content did not arrive', { timeout: 8000 });
  await (el as Element & { updateComplete: Promise<unknown> }).updateComplete;
  return [loading, heightOf(el)];
}

describe('loading shapes in any font', () => {
  beforeEach(() => clearStoredClaims());
  afterEach(() => document.documentElement.style.removeProperty('font-family'));

  FONT_FAMILIES.forEach((font, index) => {
    describe(`in ${font.family} (${font.width})`, () => {
      beforeEach(() => {
        expectInstalled(font);
        document.documentElement.style.fontFamily = `"${font.family}"`;
      });

      it('<campaign-carousel> is as tall on its skeleton as with its campaigns', async () => {
        // Each run its own page size, so no request is shared with another test.
        const [loading, loaded] = await loadingThenLoaded(
          html`<campaign-carousel limit=${11 + index}></campaign-carousel>`,
          '[part~="slide"]',
        );
        console.log(`<campaign-carousel> in ${font.family}: ${loading}px loading, ${loaded}px loaded`);
        expect(loaded).to.be.closeTo(loading, 0.5);
      });

      it('<campaign-carousel claim> is as tall on its skeleton as with its campaigns and claim buttons', async () => {
        // The program's campaigns, up to the test sandbox's hostile record: its markup-laden text is
        // longer than the lines held for a slide, so it wraps and its slide grows (nothing is cut).
        const [loading, loaded] = await loadingThenLoaded(
          html`<campaign-carousel claim limit=${13 + index}></campaign-carousel>`,
          '[part~="slide"] coupon-claim, [part~="slide"]:not(:has(coupon-claim))',
        );
        console.log(`<campaign-carousel claim> in ${font.family}: ${loading}px loading, ${loaded}px loaded`);
        expect(loaded).to.be.closeTo(loading, 0.5);
      });

      it('<coupon-claim> is as tall on its skeleton as with its title, price and button', async () => {
        const [loading, loaded] = await loadingThenLoaded(
          html`<coupon-claim campaign-id="camp-harbor-beans"></coupon-claim>`,
          '[part~="claim-button"]',
        );
        console.log(`<coupon-claim> in ${font.family}: ${loading}px loading, ${loaded}px loaded`);
        expect(loaded).to.be.closeTo(loading, 0.5);
      });
    });
  });
});
