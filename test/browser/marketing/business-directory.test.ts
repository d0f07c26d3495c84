import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/business-directory/index.ts';
import type { BusinessDirectory } from '../../../src/elements/business-directory/index.ts';
import { propertyLabel } from '../../../src/shared/property-label.ts';
import { clientFor } from '../../../src/marketing/index.ts';
import { recordFetches } from './helpers.ts';
import { HOSTILE_CATEGORY, HOSTILE_TEXT } from './hostile-seed.ts';
import { part, parts, showsOneOf } from '../parts.ts';

const names = (el: BusinessDirectory) => parts(el, 'name').map((name) => name.textContent);

const loaded = (el: BusinessDirectory) => showsOneOf(el, ['list', 'empty', 'error']);

function card(el: BusinessDirectory, name: string): HTMLElement {
  const found = parts(el, 'card').find((c) => c.querySelector('[part~="name"]')?.textContent === name);
  if (!found) throw new Error(`no card for ${name}`);
  return found;
}

describe('<business-directory>', () => {
  let fetches: ReturnType<typeof recordFetches>;
  beforeEach(() => (fetches = recordFetches()));
  afterEach(() => fetches.restore());

  it('shows approved businesses with all their details, and never a pending one', async () => {
    const fromProxy = await clientFor('/api/marketing').businessAccounts({ limit: 50 });
    expect(
      fromProxy.items.some((a) => a.pending),
      'the proxy does send a pending account',
    ).to.equal(true);

    const el = await fixture<BusinessDirectory>(html`<business-directory limit="50"></business-directory>`);
    await loaded(el);
    expect(names(el)).to.include.members(['Harbor Coffee Roasters', 'Greenleaf Market', 'Lumen Books']);
    expect(names(el)).to.not.include('Nova Fitness Studio');
    expect(el.shadowRoot!.textContent).to.not.contain('Nova Fitness');

    const harbor = card(el, 'Harbor Coffee Roasters');
    expect(harbor.querySelector('[part~="category"]')!.textContent).to.equal('Cafe');
    expect(harbor.querySelector('[part~="description"]')!.textContent).to.contain('Small-batch roastery');
    expect(harbor.querySelector('[part~="address"]')!.textContent).to.equal('14 Quay Street94107 San Francisco');
    const phone = harbor.querySelector<HTMLAnchorElement>('a[part~="phone"]')!;
    expect([phone.getAttribute('href'), phone.textContent]).to.deep.equal(['tel:+14155550142', '+1 415-555-0142']);
    const website = harbor.querySelector<HTMLAnchorElement>('a[part~="website"]')!;
    expect([website.href, website.target, website.rel]).to.deep.equal([
      'https://harborcoffee.example/',
      '_blank',
      'noopener noreferrer',
    ]);
    const logo = harbor.querySelector<HTMLImageElement>('img[part~="logo"]')!;
    expect(logo.getAttribute('src')).to.match(/^http:\/\/localhost:\d+\//);
    const terms = [...harbor.querySelectorAll('dl[part~="properties"] dt')].map((dt) => dt.textContent);
    const values = [...harbor.querySelectorAll('dl[part~="properties"] dd')].map((dd) => dd.textContent);
    expect(terms, 'keys read as words').to.deep.equal(['Opening hours', 'Wifi']);
    expect(values).to.deep.equal(['Mon–Sat 7:00–18:00, Sun 8:00–16:00', 'yes']);
  });

  it('reads custom property keys as words, whatever their spelling', () => {
    const labels = ['openingHours', 'opening_hours', 'parking-spots', 'wifiSSID', 'URLPath', 'Free WiFi', 'wifi'].map(
      propertyLabel,
    );
    expect(labels).to.deep.equal([
      'Opening hours',
      'Opening hours',
      'Parking spots',
      'Wifi SSID',
      'URL path',
      'Free WiFi',
      'Wifi',
    ]);
  });

  it('keeps a custom property value that wraps with its own key, apart from the next key', async () => {
    // A card narrower than key and value together, so the value goes below its key in any font.
    const el = await fixture<BusinessDirectory>(
      html`<business-directory limit="50" style="inline-size: 12rem"></business-directory>`,
    );
    await loaded(el);
    const entries = [...card(el, 'Harbor Coffee Roasters').querySelectorAll('dl[part~="properties"] > div')];
    const [hoursKey, hoursValue] = [...entries[0]!.children].map((child) => child.getBoundingClientRect());
    const nextKey = entries[1]!.querySelector('dt')!.getBoundingClientRect();
    expect(hoursValue!.top, 'the value wrapped below its key').to.be.at.least(hoursKey!.bottom - 1);
    const toOwnKey = hoursValue!.top - hoursKey!.bottom;
    const toNextKey = nextKey.top - hoursValue!.bottom;
    expect(toOwnKey, 'closer to its own key than to the next one').to.be.below(toNextKey);
  });

  it('renders hostile text as text, drops a javascript: website and an http logo, and sanitizes the tel: link', async () => {
    const el = await fixture<BusinessDirectory>(
      html`<business-directory category=${HOSTILE_CATEGORY}></business-directory>`,
    );
    await loaded(el);
    const hostile = parts(el, 'card');
    expect(hostile).to.have.length(1);
    const only = hostile[0]!;
    expect(only.querySelector('[part~="name"]')!.textContent).to.equal(`Hostile ${HOSTILE_TEXT} & Co`);
    expect(only.querySelector('[part~="description"]')!.textContent).to.equal(HOSTILE_TEXT);
    expect(only.querySelector('[onerror], script, b, i')).to.equal(null);
    expect(only.querySelector('[part~="website"]'), 'javascript: website is not a link').to.equal(null);
    expect([...only.querySelectorAll('a')].every((a) => a.protocol === 'tel:')).to.equal(true);
    expect(only.querySelector('[part~="logo"]'), 'http logo off localhost is dropped').to.equal(null);
    expect(only.querySelector('a[part~="phone"]')!.getAttribute('href')).to.equal('tel:+15550109999');
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('filters by category, on the proxy and again on the page', async () => {
    const el = await fixture<BusinessDirectory>(html`<business-directory category="Books"></business-directory>`);
    await loaded(el);
    expect(names(el)).to.deep.equal(['Lumen Books']);
    expect(fetches.of('businessAccounts')[0]!.variables).to.deep.include({ category: 'Books' });
  });

  it('loads the next page with its native "show more" button, also from the keyboard', async () => {
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="2"></business-directory>`);
    await loaded(el);
    const more = () => part<HTMLButtonElement>(el, 'load-more-button');
    const pageLoaded = async () => {
      await el.updateComplete;
      await waitUntil(() => !more() || more()!.getAttribute('aria-disabled') === 'false', 'the page did not load', {
        timeout: 5000,
      });
    };
    expect(parts(el, 'card')).to.have.length(2);
    more()!.click();
    await pageLoaded();
    expect(fetches.of('businessAccounts')).to.have.length(2);
    expect(fetches.of('businessAccounts')[1]!.variables.nextToken).to.be.a('string');
    expect(parts(el, 'card')).to.have.length(4);
    more()!.focus();
    await sendKeys({ press: 'Enter' });
    await pageLoaded();
    expect(fetches.of('businessAccounts')).to.have.length(3);
    while (more()) {
      more()!.focus();
      await sendKeys({ press: 'Enter' });
      await pageLoaded();
    }
    await waitUntil(
      () => el.shadowRoot!.activeElement?.matches('[part~="card"]'),
      'focus stays in the list when the button goes',
    );
    expect(names(el)).to.include.members(['Harbor Coffee Roasters', 'Lumen Books', 'Peak Outfitters']);
    expect(names(el)).to.not.include('Nova Fitness Studio');
    expect(new Set(names(el)).size).to.equal(names(el).length);
  });

  it('falls back to the default page size when the limit attribute is not a usable number', async () => {
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="lots"></business-directory>`);
    await loaded(el);
    expect(fetches.of('businessAccounts')[0]!.variables).to.deep.equal({ limit: 12 });
    expect(parts(el, 'card').length).to.be.greaterThan(0);
  });

  it('reads the page-wide endpoint, and its own endpoint attribute wins', async () => {
    const meta = document.createElement('meta');
    meta.name = 'loyalty-endpoint';
    meta.content = 'http://localhost:9/nowhere';
    document.head.append(meta);
    try {
      const pageWide = await fixture<BusinessDirectory>(html`<business-directory></business-directory>`);
      await loaded(pageWide);
      expect(parts(pageWide, 'error')).to.have.length(1);
      const own = await fixture<BusinessDirectory>(
        html`<business-directory endpoint="/api/marketing"></business-directory>`,
      );
      await loaded(own);
      expect(parts(own, 'card').length).to.be.greaterThan(0);
    } finally {
      meta.remove();
    }
  });

  it('shows a localized failure whose retry button works', async () => {
    fetches.loseResponses(1);
    const el = await fixture<BusinessDirectory>(html`<business-directory lang="fr"></business-directory>`);
    await loaded(el);
    const error = parts(el, 'error')[0]!;
    expect(error.getAttribute('role')).to.equal('alert');
    expect(error.textContent).to.contain('Le service de fidélité est injoignable');
    await expect(el).to.be.accessible();
    part<HTMLButtonElement>(el, 'retry-button')!.click();
    await waitUntil(() => parts(el, 'card').length > 0, 'retry loads', { timeout: 5000 });
  });

  it('is accessible, in English and in Arabic right to left', async () => {
    const el = await fixture<BusinessDirectory>(html`<business-directory limit="4"></business-directory>`);
    await loaded(el);
    await expect(el).to.be.accessible();
    const rtl = await fixture<HTMLDivElement>(
      html`<div lang="ar" dir="rtl"><business-directory limit="4"></business-directory></div>`,
    );
    const inner = rtl.querySelector('business-directory')!;
    await loaded(inner);
    expect(inner.shadowRoot!.querySelector('section')!.getAttribute('aria-label')).to.equal('الأنشطة التجارية');
    expect(getComputedStyle(part(inner, 'card')!).direction).to.equal('rtl');
    await expect(inner).to.be.accessible();
  });
});
