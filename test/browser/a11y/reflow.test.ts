/**
 * WCAG 1.4.10 (reflow) and 1.4.12 (text spacing): at 320 CSS px, and with the text-spacing override
 * applied inside the shadow roots, no element cuts text off with no way to read it, and none is
 * wider than its container. Measured on layout boxes, so it holds in any font.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/loyalty-signin-button/index.ts';
import { showsOneOf } from '../parts.ts';
import { clearStoredClaims } from '../marketing/helpers.ts';
import { applyTextSpacing, clippedText, composedClosest, shadowRootsIn } from './measure.ts';

/** Every element with its longest texts: all the program's campaigns, businesses, a coupon, in English and Arabic. */
const page = (width: number) => html`<div style="inline-size: ${width}px">
  <loyalty-signin-button authority="https://connect.example" client-id="demo-app"></loyalty-signin-button>
  <campaign-carousel claim limit="20" currency="EUR"></campaign-carousel>
  <coupon-claim campaign-id="camp-harbor-morning-latte" currency="EUR"></coupon-claim>
  <business-directory limit="20"></business-directory>
  <div dir="rtl" lang="ar"><campaign-carousel limit="20"></campaign-carousel></div>
</div>`;

async function loaded(root: Element): Promise<void> {
  for (const el of root.querySelectorAll('campaign-carousel, coupon-claim, business-directory'))
    await showsOneOf(el, ['slide', 'card', 'claim-button', 'error', 'empty']);
  for (const claim of shadowRootsIn(root).flatMap((scope) => [...scope.querySelectorAll('coupon-claim')]))
    await showsOneOf(claim, ['claim-button', 'copy-button', 'error', 'message', 'signin-button']);
}

/** The carousel's track scrolls its slides sideways on purpose; hidden text is not laid out for the eye. */
const SCROLLED_OR_HIDDEN = '[part~="slides"], [aria-hidden="true"], .visually-hidden';

/** Boxes inside the elements that reach past the container's edges (which would widen a 320px page). */
function overflowing(root: HTMLElement): string[] {
  const { left, right } = root.getBoundingClientRect();
  return shadowRootsIn(root).flatMap((scope) =>
    [...scope.querySelectorAll<HTMLElement>('*')]
      .filter((el) => !composedClosest(el, SCROLLED_OR_HIDDEN) && el.getClientRects().length)
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.left < left - 0.5 || box.right > right + 0.5;
      })
      .map((el) => {
        const box = el.getBoundingClientRect();
        const host = (el.getRootNode() as ShadowRoot).host?.localName ?? 'page';
        return `${host} ${el.getAttribute('part') ?? el.localName}: ${Math.round(box.left - left)}..${Math.round(box.right - left)}px in ${Math.round(right - left)}px`;
      }),
  );
}

describe('text that reflows (WCAG 1.4.10, 1.4.12)', () => {
  beforeEach(clearStoredClaims);

  it('cuts off no text at 320 CSS px, and no element is wider than the page', async () => {
    const root = await fixture<HTMLDivElement>(page(320));
    await loaded(root);
    const cut = clippedText(root);
    console.log(`clipped at 320px: ${cut.length}\n  ${cut.join('\n  ')}`);
    expect(cut).to.deep.equal([]);
    expect(overflowing(root)).to.deep.equal([]);
  });

  for (const width of [320, 1280]) {
    it(`cuts off no text with the text-spacing override inside the shadow roots, at ${width} CSS px`, async () => {
      const root = await fixture<HTMLDivElement>(page(width));
      await loaded(root);
      const remove = applyTextSpacing(root);
      try {
        const cut = clippedText(root);
        console.log(`clipped with text spacing at ${width}px: ${cut.length}\n  ${cut.join('\n  ')}`);
        expect(cut).to.deep.equal([]);
        expect(overflowing(root)).to.deep.equal([]);
      } finally {
        remove();
      }
    });
  }
});
