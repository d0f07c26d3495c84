/**
 * The space an element and a CMS mount hold before their code arrives (src/reserved-space.ts, shipped
 * as dist/loyalty-widgets.css) is the space of the loading view they then show, in each engine, at a
 * phone's width and a desktop's, in each loading shape, with or without what an editor left in a
 * mount. The elements' code is imported only once the held boxes are measured, and the network never
 * answers, so the elements stay on their loading views.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { reservedSpaceCss } from '../../../src/reserved-space.ts';
import { watchMounts } from '../../../src/mounts.ts';
import { hangFetch } from '../marketing/helpers.ts';

const SHAPES = [
  '<loyalty-signin-button authority="https://connect.example" client-id="a"></loyalty-signin-button>',
  '<campaign-carousel></campaign-carousel>',
  '<campaign-carousel claim></campaign-carousel>',
  '<coupon-claim campaign-id="camp-harbor-beans"></coupon-claim>',
  '<coupon-claim campaign-id="camp-harbor-beans" compact></coupon-claim>',
  '<business-directory></business-directory>',
  '<div data-loyalty-widget="loyalty-signin-button">&nbsp;</div>',
  '<div data-loyalty-widget="campaign-carousel">Campaigns load here.</div>',
  '<div data-loyalty-widget="Campaign-Carousel" data-claim><p>Our offers.</p><p>More soon.</p></div>',
  '<div data-loyalty-widget="coupon-claim" data-campaign-id="camp-harbor-beans"></div>',
  '<div data-loyalty-widget="coupon-claim" data-campaign-id="camp-harbor-beans" data-compact>&nbsp;</div>',
  '<div data-loyalty-widget="business-directory"><p>Our partners.</p></div>',
];
const WIDTHS = [390, 1000];

/** Each shape at each width: the box that holds the space, and what it shows once loaded. */
function boxes(): HTMLElement[][] {
  return [...document.querySelectorAll<HTMLElement>('.width')].map((column) => [
    ...column.querySelectorAll<HTMLElement>(':scope > *'),
  ]);
}

/** The element in a box: the box itself, or what a mount became. */
function elementOf(box: HTMLElement): (HTMLElement & { updateComplete?: Promise<unknown> }) | null {
  return box.hasAttribute('data-loyalty-widget') ? (box.firstElementChild as HTMLElement | null) : box;
}

describe('the space held before the code arrives', () => {
  it('is the space of each loading view, for elements and CMS mounts alike', async () => {
    // The sign-in's settings are the head's: a mount carries none.
    for (const [name, content] of [
      ['loyalty-authority', 'https://connect.example'],
      ['loyalty-client-id', 'a'],
    ])
      document.head.append(Object.assign(document.createElement('meta'), { name, content }));
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(reservedSpaceCss);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    for (const width of WIDTHS) {
      const column = document.createElement('div');
      column.className = 'width';
      column.style.inlineSize = `${width}px`;
      column.innerHTML = SHAPES.join('');
      document.body.append(column);
    }
    expect(customElements.get('campaign-carousel'), 'no element is defined while the held space is measured').to.equal(
      undefined,
    );
    // The boxes stay: a mount keeps its place and gets its element inside it.
    const columns = boxes();
    const heights = () => columns.map((column) => column.map((box) => box.getBoundingClientRect().height));
    const held = heights();

    const network = hangFetch();
    try {
      await Promise.all([
        import('../../../src/elements/loyalty-signin-button/index.ts'),
        import('../../../src/elements/campaign-carousel/index.ts'),
        import('../../../src/elements/coupon-claim/index.ts'),
        import('../../../src/elements/business-directory/index.ts'),
      ]);
      watchMounts(() => {});
      await waitUntil(
        () =>
          columns
            .flat()
            .every((box) => elementOf(box)?.shadowRoot?.querySelector('[part~="skeleton"], [part~="button"]')),
        'every element shows its loading view',
        { timeout: 8000 },
      );
      await Promise.all(columns.flat().map((box) => elementOf(box)!.updateComplete));
      const shown = heights();
      columns.forEach((column, c) =>
        column.forEach((_, s) => {
          const what = `${SHAPES[s]} at ${WIDTHS[c]}px`;
          expect(held[c]![s], `${what} holds no space`).to.be.greaterThan(0);
          expect(
            Math.abs(held[c]![s]! - shown[c]![s]!),
            `${what}: ${held[c]![s]} held, ${shown[c]![s]} shown`,
          ).to.be.at.most(2);
        }),
      );
    } finally {
      network.restore();
    }
  });
});
