/**
 * The sanitizer-proof form a CMS editor writes, `<div data-loyalty-widget="…" data-…>`, turned into
 * the element by the script tag, against the real proxy and sandbox: on the page from the start,
 * added later, given the attribute later; bad input shows the elements' own set-up message and is
 * named in the console, and nothing but the element's own attributes reaches the element.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { captureWarnings } from '../setup/helpers.ts';
import { part, parts, showsOneOf } from '../parts.ts';

const LATTE = 'camp-harbor-morning-latte';

function mountHtml(markup: string): HTMLElement {
  const holder = document.createElement('section');
  holder.innerHTML = markup;
  document.body.append(holder);
  return holder;
}

async function elementIn(mount: Element, tag: string): Promise<HTMLElement> {
  await waitUntil(() => mount.querySelector(tag), `the mount did not become <${tag}>`, { timeout: 8000 });
  return mount.querySelector<HTMLElement>(tag)!;
}

describe('sanitizer-proof mounts', () => {
  let warnings: ReturnType<typeof captureWarnings>;
  // Mounts already on the page when the script tag runs, as a CMS page has them.
  const initial = mountHtml(
    `<div id="carousel" class="editor-class" data-loyalty-widget="campaign-carousel" data-limit="2" data-business-account-id="biz-harbor-coffee" data-currency="EUR">Campaigns load here.</div>
     <div id="claim" data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}">&nbsp;</div>`,
  );

  before(async () => {
    warnings = captureWarnings();
    await import('../../../src/index.ts');
  });
  after(() => warnings.restore());

  it('a mount on the page from the start becomes its element, with its data- attributes, inside the mount', async () => {
    const mount = initial.querySelector('#carousel')!;
    const carousel = await elementIn(mount, 'campaign-carousel');
    expect(carousel.getAttribute('limit')).to.equal('2');
    expect(carousel.getAttribute('business-account-id')).to.equal('biz-harbor-coffee');
    expect(carousel.getAttribute('currency')).to.equal('EUR');
    expect(mount.childNodes, 'the fallback text is replaced').to.have.length(1);
    expect(mount.className, 'the mount keeps its own attributes').to.equal('editor-class');
    expect((carousel as HTMLElement & { limit: number }).limit, 'pages of data-limit campaigns').to.equal(2);
    await showsOneOf(carousel, ['slide']);
    // More pages follow while the view has room for them: how many depends on the window's width.
    expect(parts(carousel, 'slide').length).to.be.at.least(1);

    const claim = await elementIn(initial.querySelector('#claim')!, 'coupon-claim');
    expect(claim.getAttribute('campaign-id')).to.equal(LATTE);
    expect(initial.querySelector('#claim')!.textContent, 'the editor’s &nbsp; is gone').to.equal('');
    await showsOneOf(claim, ['claim-button']);
  });

  it('mounts added later, and a div given the attribute later, become their elements', async () => {
    const later = mountHtml(`<div data-loyalty-widget="business-directory" data-limit="3"></div>`);
    const directory = await elementIn(later, 'business-directory');
    expect(directory.getAttribute('limit')).to.equal('3');
    await showsOneOf(directory, ['card']);

    const plain = mountHtml('<div></div>').firstElementChild!;
    plain.setAttribute('data-campaign-id', LATTE);
    plain.setAttribute('data-compact', '');
    plain.setAttribute('data-loyalty-widget', 'coupon-claim');
    const claim = await elementIn(plain, 'coupon-claim');
    expect(claim.hasAttribute('compact')).to.equal(true);
    await showsOneOf(claim, ['claim-button']);
  });

  it('only the element’s own attributes are carried over: handlers and styles are left out and named once', async () => {
    const holder = mountHtml(
      `<div data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}" data-onclick="window.__mountRan = true" data-style="position:fixed;inset:0" data-lang="fr"></div>`,
    );
    const claim = await elementIn(holder.firstElementChild!, 'coupon-claim');
    expect(claim.hasAttribute('onclick')).to.equal(false);
    expect(claim.hasAttribute('style')).to.equal(false);
    expect(claim.getAttribute('lang'), 'lang is a global attribute the mount may pass on').to.equal('fr');
    await showsOneOf(claim, ['claim-button']);
    part(claim, 'claim-button')!.click();
    expect((window as { __mountRan?: boolean }).__mountRan).to.equal(undefined);
    const about = warnings.about('data-onclick');
    expect(about).to.have.length(1);
    expect(about[0]).to.contain('<coupon-claim>').and.contain('data-style').and.contain('data-campaign-id');
  });

  it('a name that is no widget shows the set-up message in the mount, in its language, and says why once', async () => {
    const holder = mountHtml(
      `<div id="typo" data-loyalty-widget="campaign-carrousel">x</div><div id="typo-fr" lang="fr" data-loyalty-widget="campaign-carrousel"></div>`,
    );
    const typo = holder.querySelector('#typo')!;
    await waitUntil(() => typo.querySelector('[role="alert"]'), 'the mount shows a message', { timeout: 8000 });
    expect(typo.textContent).to.equal('This widget is not set up correctly.');
    const french = holder.querySelector('#typo-fr')!;
    await waitUntil(() => french.querySelector('[role="alert"]'), 'the French mount shows a message', {
      timeout: 8000,
    });
    expect(french.textContent).to.equal('Ce widget est mal configuré.');
    expect(holder.querySelector('campaign-carousel, campaign-carrousel')).to.equal(null);
    const about = warnings.about('campaign-carrousel');
    expect(about, 'one warning for the same mistake').to.have.length(1);
    expect(about[0]).to.contain('campaign-carousel, coupon-claim');
  });

  it('a mount is turned once, even when moved in the page', async () => {
    const holder = mountHtml(`<div data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}"></div>`);
    const mount = holder.firstElementChild!;
    const claim = await elementIn(mount, 'coupon-claim');
    document.body.append(mount);
    await new Promise(requestAnimationFrame);
    await customElements.whenDefined('coupon-claim');
    expect(mount.querySelector('coupon-claim')).to.equal(claim);
  });
});
