import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/business-directory/index.ts';
import type { BusinessDirectory } from '../../../src/elements/business-directory/index.ts';
import { scriptPages, wireAccount } from './helpers.ts';
import { part, parts, showsOneOf } from '../parts.ts';

/** How many pages that show nothing a list reads in a row before it waits (documented on `limit`). */
const MAX_EMPTY_PAGES = 5;

// Pages as an upstream that filters after reading gives them (short, empty, with or without a cursor).
const names = (el: BusinessDirectory) => parts(el, 'name').map((name) => name.textContent);
const more = (el: BusinessDirectory) => part<HTMLButtonElement>(el, 'load-more-button');

const loaded = (el: BusinessDirectory) => showsOneOf(el, ['list', 'empty', 'error']);

async function pageLoaded(el: BusinessDirectory): Promise<void> {
  await el.updateComplete;
  await waitUntil(() => !more(el) || more(el)!.getAttribute('aria-disabled') === 'false', 'the page did not load', {
    timeout: 5000,
  });
}

describe('<business-directory> paging through short and empty pages', () => {
  let script: ReturnType<typeof scriptPages> | undefined;
  afterEach(() => script?.restore());

  it('reads on past first pages that show nothing (empty, or only pending accounts) but carry a nextToken', async () => {
    script = scriptPages('businessAccounts', [[], [wireAccount('p', true)], [wireAccount('a')], [wireAccount('b')]]);
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="2"></business-directory>`);
    await loaded(el);
    expect(names(el)).to.deep.equal(['Business a']);
    expect(script.asked).to.deep.equal([null, 'page-1', 'page-2']);
    expect(more(el), 'more may come').to.not.equal(null);
  });

  it('skips an empty page on "show more" and ends on an empty last page with focus on the last business', async () => {
    script = scriptPages('businessAccounts', [[wireAccount('a')], [], [wireAccount('b')], []]);
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="2"></business-directory>`);
    await loaded(el);
    more(el)!.focus();
    await sendKeys({ press: 'Enter' });
    await pageLoaded(el);
    expect(names(el), 'one press shows the next business').to.deep.equal(['Business a', 'Business b']);
    more(el)!.focus();
    await sendKeys({ press: 'Enter' });
    await pageLoaded(el);
    expect(more(el), 'no button after the last page').to.equal(null);
    expect(script.asked).to.deep.equal([null, 'page-1', 'page-2', 'page-3']);
    await waitUntil(() => el.shadowRoot!.activeElement?.matches('[part~="card"]'), 'focus stays in the list');
    expect(el.shadowRoot!.activeElement!.querySelector('[part~="name"]')!.textContent).to.equal('Business b');
  });

  it(`stops after ${MAX_EMPTY_PAGES} pages in a row that show nothing, with a working "show more"`, async () => {
    script = scriptPages('businessAccounts', [[wireAccount('a')]], { endless: true });
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="2"></business-directory>`);
    await loaded(el);
    more(el)!.click();
    await pageLoaded(el);
    expect(script.asked).to.have.length(1 + MAX_EMPTY_PAGES);
    more(el)!.click();
    await pageLoaded(el);
    expect(script.asked, 'the button reads on').to.have.length(1 + 2 * MAX_EMPTY_PAGES);
    expect(names(el)).to.deep.equal(['Business a']);
  });
});
