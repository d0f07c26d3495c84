/**
 * A directory the server printed is laid out as the element lays out its cards (src/reserved-space.ts),
 * so the element taking it over keeps its height at every frame, in each engine, at a phone's width and
 * a desktop's, in a wide and a narrow font. The printed page shows what a card shows, the program's own
 * properties included, and holds the room of the button for the next page when there is one.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { stylesheetCss } from '../../../src/reserved-space.ts';
import { renderMount } from '../../../src/proxy/render/index.ts';
import { FONT_FAMILIES } from '../../support/font-families.ts';

const WIDTHS = [390, 1100];

interface Answer {
  data: { businessAccounts: { items: { customProperties: unknown[] }[]; nextToken: string | null } };
}

/** The proxy's answer for `limit` businesses, as it comes or (`last`) as the last page. */
async function answerFor(limit: number, last: boolean): Promise<string> {
  const answer = (await (await fetch(`/api/marketing?operation=businessAccounts&limit=${limit}`)).json()) as Answer;
  const page = answer.data.businessAccounts;
  expect(page.items.length, 'businesses to print').to.be.greaterThan(1);
  expect(
    page.items.some((item) => item.customProperties.length > 0),
    'businesses with properties',
  ).to.equal(true);
  if (last) page.nextToken = null;
  else expect(page.nextToken, 'a next page').to.be.a('string');
  return JSON.stringify(answer);
}

/** Every height `mount` has at each frame until `done` is true, and a few frames after. */
async function heightsUntil(mount: Element, done: () => boolean): Promise<number[]> {
  const heights: number[] = [];
  let after = 0;
  await new Promise<void>((resolve) => {
    const frame = () => {
      heights.push(mount.getBoundingClientRect().height);
      if (done()) after++;
      if (after > 5) resolve();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return heights;
}

describe('a printed directory taken over by its element', () => {
  before(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(stylesheetCss());
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });
  afterEach(() => document.documentElement.style.removeProperty('font-family'));

  FONT_FAMILIES.forEach(({ family }, fontIndex) => {
    WIDTHS.forEach((width, widthIndex) => {
      it(`keeps its height at ${width}px in ${family}`, async () => {
        document.documentElement.style.fontFamily = `"${family}"`;
        // Each run its own page size, so each mount offers an answer of its own; at a phone's width
        // the page has a next one, at a desktop's it is the last.
        const last = widthIndex > 0;
        const answer = await answerFor(2 + fontIndex * WIDTHS.length + widthIndex, last);
        const holder = document.createElement('div');
        holder.style.inlineSize = `${width}px`;
        holder.innerHTML = renderMount(
          'business-directory',
          { limit: 2 + fontIndex * WIDTHS.length + widthIndex },
          answer,
        );
        document.body.append(holder);
        try {
          const mount = holder.firstElementChild!;
          const printed = mount.getBoundingClientRect().height;
          const cards = mount.querySelectorAll('[data-loyalty-first-page] li');
          expect(cards.length, 'printed cards').to.be.greaterThan(1);
          expect(
            mount.querySelectorAll('[data-loyalty-first-page] li dt').length,
            'printed properties',
          ).to.be.greaterThan(0);
          expect(mount.querySelector('[data-field="more"]') === null, 'the room of the button').to.equal(last);
          // The cards are laid out as the element's: side by side on a desktop, stacked on a phone.
          const [first, second] = [...cards].map((card) => card.getBoundingClientRect());
          if (width > 600) expect(second!.top).to.equal(first!.top);
          else expect(second!.top).to.be.greaterThan(first!.bottom);
          // The script tag turns the mount (a mount added later is turned as well).
          await import('../../../src/index.ts');
          const element = () => mount.querySelector('business-directory');
          const heights = await heightsUntil(mount, () =>
            Boolean(element()?.shadowRoot?.querySelectorAll('[part~="name"]').length === cards.length),
          );
          const button = element()!.shadowRoot!.querySelector('[part~="load-more-button"]');
          expect(button === null, 'the element shows a button for the next page').to.equal(last);
          expect(mount.querySelector('[data-loyalty-first-page]'), 'the printed page is gone').to.equal(null);
          await waitUntil(() => [...element()!.shadowRoot!.querySelectorAll('img')].every((image) => image.complete));
          heights.push(mount.getBoundingClientRect().height);
          const moved = heights.filter((height) => Math.abs(height - printed) > 0.5);
          expect(moved, `heights other than the printed ${printed}px`).to.deep.equal([]);
        } finally {
          holder.remove();
        }
      });
    });
  });
});
