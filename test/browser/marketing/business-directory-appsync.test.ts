import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/business-directory/index.ts';
import type { BusinessDirectory } from '../../../src/elements/business-directory/index.ts';
import { part, parts, showsOneOf } from '../parts.ts';

// The directory through the proxy in front of the appsync-flavoured sandbox: scanned pages, accounts
// with null names, null `pending`, null addresses and null custom-property elements.
const ENDPOINT = '/api/appsync/marketing';
const names = (el: BusinessDirectory) => parts(el, 'name').map((name) => name.textContent);
const more = (el: BusinessDirectory) => part<HTMLButtonElement>(el, 'load-more-button');

const loaded = (el: BusinessDirectory) => showsOneOf(el, ['list', 'empty', 'error']);

describe('<business-directory> over an AppSync-shaped Marketing API', () => {
  it('shows every approved business page by page, never a pending or unclassified one, and ends cleanly', async () => {
    const el = await fixture<BusinessDirectory>(
      html`<business-directory endpoint=${ENDPOINT} limit="2"></business-directory>`,
    );
    await loaded(el);
    expect(parts(el, 'error')).to.have.length(0);
    for (let press = 0; press < 20 && more(el); press++) {
      more(el)!.click();
      await el.updateComplete;
      await waitUntil(() => !more(el) || more(el)!.getAttribute('aria-disabled') === 'false', 'the page did not load', {
        timeout: 8000,
      });
    }
    expect(more(el), 'no "show more" after the last page').to.equal(null);
    expect(parts(el, 'error')).to.have.length(0);
    expect([...names(el)].sort()).to.deep.equal([
      'Corner Florist',
      'Crumb & Co. Bakery',
      'Greenleaf Market',
      'Harbor Coffee Roasters',
      'Lumen Books',
      'Peak Outfitters',
    ]);
  });

  it('shows a business whose address and properties hold nulls, accessibly', async () => {
    const el = await fixture<BusinessDirectory>(
      html`<business-directory endpoint=${ENDPOINT} limit="50"></business-directory>`,
    );
    await loaded(el);
    const crumb = parts(el, 'card').find(
      (card) => card.querySelector('[part~="name"]')!.textContent === 'Crumb & Co. Bakery',
    )!;
    expect(crumb.querySelector('[part~="address"]')!.textContent).to.contain('Boulder');
    expect(crumb.querySelector('[part~="logo"]'), 'no logo').to.equal(null);
    expect([...crumb.querySelectorAll('dt')].map((term) => term.textContent)).to.include('Gluten free');
    await expect(el).to.be.accessible();
  });
});
