/**
 * A mount the server printed with its first page inside (src/proxy/render/), taken over by its element
 * in each engine, at a phone's width and a desktop's: the proxy is not asked for that page, and the
 * element shows the printed answer in place of the printed markup.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { stylesheetCss } from '../../../src/reserved-space.ts';
import { renderMount } from '../../../src/proxy/render/index.ts';

const WIDGETS: [tag: string, attributes: Record<string, string | number>, read: string, shows: string][] = [
  ['campaign-carousel', { limit: 2 }, 'operation=campaigns&limit=2', '[part~="title"]'],
  [
    'coupon-claim',
    { 'campaign-id': 'camp-harbor-beans' },
    'operation=campaign&id=camp-harbor-beans',
    '[part~="title"]',
  ],
  ['business-directory', { limit: 2 }, 'operation=businessAccounts&limit=2', '[part~="name"]'],
];
const WIDTHS = [390, 1000];

describe('a mount printed with its first page', () => {
  it('is taken over by its element with no request for the page', async () => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(stylesheetCss());
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    // The answers the server would print, read before the page's own code runs.
    const answers = await Promise.all(
      WIDGETS.map(async ([, , read]) => (await fetch(`/api/marketing?${read}`)).text()),
    );
    const asked: string[] = [];
    const original = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return original(input, init);
    };
    const holder = document.createElement('div');
    holder.innerHTML = WIDTHS.map(
      (width) =>
        `<div style="inline-size: ${width}px">${WIDGETS.map(
          ([tag, attributes], index) => `${renderMount(tag, attributes, answers[index])}`,
        ).join('')}</div>`,
    ).join('');
    document.body.append(holder);
    try {
      expect(holder.querySelectorAll('[data-loyalty-first-page]').length).to.equal(WIDGETS.length * WIDTHS.length);
      await import('../../../src/index.ts');
      const mounts = [...holder.querySelectorAll('[data-loyalty-widget]')];
      await waitUntil(
        () =>
          mounts.every((mount, index) =>
            mount.firstElementChild?.shadowRoot?.querySelector(WIDGETS[index % WIDGETS.length]![3]),
          ),
        'every element shows its first page',
        { timeout: 10_000 },
      );
      const firstPages = asked.filter((url) => WIDGETS.some(([, , read]) => url.endsWith(read)));
      expect(firstPages, 'no first page was asked for').to.deep.equal([]);
      expect(holder.querySelectorAll('[data-loyalty-first-page]').length, 'the printed pages are gone').to.equal(0);
    } finally {
      window.fetch = original;
    }
  });
});
