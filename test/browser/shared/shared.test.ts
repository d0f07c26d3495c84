import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { LitElement } from 'lit';
import { safeUrl } from '../../../src/shared/safe-url.ts';
import { resolveEndpoint } from '../../../src/shared/config.ts';
import { defineElement } from '../../../src/shared/define.ts';
import { emit } from '../../../src/shared/emit.ts';
import { LoyaltyElement } from '../../../src/elements/internal/loyalty-element.ts';
import { VERSION } from '../../../src/shared/version.ts';
import { captureWarnings } from '../setup/helpers.ts';
import {
  LocaleController,
  loadBuiltInMessages,
  registerBuiltInMessages,
  registerMessages,
  resolveLang,
} from '../../../src/shared/i18n.ts';

describe('safeUrl', () => {
  it('keeps https anywhere and http only on local hosts', () => {
    expect(safeUrl('https://cdn.example.com/a.png')).to.equal('https://cdn.example.com/a.png');
    expect(safeUrl('http://localhost:4002/img/1?w=400')).to.equal('http://localhost:4002/img/1?w=400');
    expect(safeUrl('http://127.0.0.1/x')).to.equal('http://127.0.0.1/x');
    expect(safeUrl('http://example.com/a.png')).to.equal(undefined);
  });

  it('drops script, data and malformed URLs', () => {
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,hi',
      'vbscript:x',
      '/relative',
      '',
      'https//broken',
      42,
      null,
    ]) {
      expect(safeUrl(bad), String(bad)).to.equal(undefined);
    }
  });
});

describe('resolveEndpoint', () => {
  afterEach(() => document.querySelector('meta[name="loyalty-endpoint"]')?.remove());

  it('prefers the element attribute, then the page meta, then the default', () => {
    expect(resolveEndpoint(null)).to.equal('/api/marketing');
    const meta = document.createElement('meta');
    meta.name = 'loyalty-endpoint';
    meta.content = 'https://shop.example/loyalty';
    document.head.append(meta);
    expect(resolveEndpoint(null)).to.equal('https://shop.example/loyalty');
    expect(resolveEndpoint('  /mine ')).to.equal('/mine');
  });
});

describe('defineElement', () => {
  /**
   * The console warnings printed by the definitions `run` makes, each report awaited (the report's
   * code loads only when there is something to report).
   */
  async function warningsWhile(run: () => (Promise<void> | undefined)[]): Promise<string[]> {
    const warnings = captureWarnings();
    try {
      await Promise.all(run());
    } finally {
      warnings.restore();
    }
    return warnings.messages;
  }

  it('is a no-op when the tag is already defined', async () => {
    class First extends HTMLElement {}
    class Second extends HTMLElement {}
    await warningsWhile(() => {
      const first = defineElement('x-define-twice', First);
      let second: Promise<void> | undefined;
      expect(() => (second = defineElement('x-define-twice', Second))).not.to.throw();
      return [first, second];
    });
    expect(customElements.get('x-define-twice')).to.equal(First);
  });

  it('stays silent when the same element is defined again', async () => {
    class Same extends HTMLElement {}
    const warnings = await warningsWhile(() => [
      defineElement('x-define-same', Same),
      defineElement('x-define-same', Same),
    ]);
    expect(warnings).to.deep.equal([]);
  });

  it('warns once, naming both versions, when another version holds the tag', async () => {
    class Older extends HTMLElement {
      static version = '0.0.9';
    }
    class Ours extends HTMLElement {
      static version = VERSION;
    }
    const warnings = await warningsWhile(() => [
      defineElement('x-define-versions', Older),
      defineElement('x-define-versions', Ours),
      defineElement('x-define-versions', Ours),
    ]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('<x-define-versions>').and.contain('0.0.9').and.contain(VERSION);
    expect(customElements.get('x-define-versions')).to.equal(Older);
  });

  it('names another definition when the element in place has no version', async () => {
    class Foreign extends HTMLElement {}
    class Ours extends HTMLElement {}
    const warnings = await warningsWhile(() => [
      defineElement('x-define-foreign', Foreign),
      defineElement('x-define-foreign', Ours),
    ]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('another definition').and.contain(VERSION);
  });

  it('carries the version of package.json', async () => {
    const { version } = (await (await fetch('/package.json')).json()) as { version: string };
    expect(VERSION).to.equal(version);
  });
});

describe('emit', () => {
  it('bubbles out of a shadow root', async () => {
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const root = host.attachShadow({ mode: 'open' });
    const inner = document.createElement('span');
    root.append(inner);
    let received: unknown;
    document.addEventListener('coupon-claimed', (e) => (received = e.detail), { once: true });
    emit(inner, 'coupon-claimed', { campaignId: 'c1', code: 'A1' });
    expect(received).to.deep.equal({ campaignId: 'c1', code: 'A1' });
  });
});

/** An element of this package, saying what it would show for a message id. */
class SayingProbe extends LoyaltyElement {
  say(id: string, params?: Record<string, string | number>): string {
    return this.locale.t(id, params);
  }
}
defineElement('saying-probe', SayingProbe);

/** What an element standing under `lang` shows for a message id. */
function translate(lang: string, id: string, params?: Record<string, string | number>): string {
  const probe = document.createElement('saying-probe') as SayingProbe;
  probe.lang = lang;
  return probe.say(id, params);
}

describe('i18n', () => {
  before(() => registerMessages({ en: { 'test.hello': 'Hello {name}' }, fr: { 'test.hello': 'Bonjour {name}' } }));

  it('falls back from a region to its language and from unknown languages to English', () => {
    expect(translate('fr-CA', 'test.hello', { name: 'Ana' })).to.equal('Bonjour Ana');
    expect(translate('sw', 'test.hello', { name: 'Ana' })).to.equal('Hello Ana');
    expect(translate('en', 'test.missing')).to.equal('test.missing');
  });

  it('reads lang from the nearest ancestor, across shadow roots', async () => {
    const outer = await fixture<HTMLDivElement>(html`<div lang="fr"><section></section></div>`);
    const host = outer.querySelector('section')!;
    const root = host.attachShadow({ mode: 'open' });
    const inner = document.createElement('p');
    root.append(inner);
    expect(resolveLang(inner)).to.equal('fr');
  });

  it('reads a CMS-style en_US as en-US and passes over a lang that is no language tag', async () => {
    const outer = await fixture<HTMLDivElement>(
      html`<div lang="fr_CA"><p lang="en_US"></p><p lang="not a language"></p><p lang="x"></p></div>`,
    );
    const [underscored, nonsense, tooShort] = outer.querySelectorAll('p');
    expect(resolveLang(underscored!)).to.equal('en-US');
    expect(resolveLang(nonsense!)).to.equal('fr-CA');
    expect(resolveLang(tooShort!)).to.equal('fr-CA');
    expect(() => new Intl.RelativeTimeFormat(resolveLang(nonsense!))).not.to.throw();
  });

  it('re-renders an element when an ancestor lang changes', async () => {
    class LocalizedProbe extends LitElement {
      readonly locale = new LocaleController(this);
      override render() {
        return html`<p>${this.locale.t('test.hello', { name: 'Ana' })}</p>`;
      }
    }
    defineElement('localized-probe', LocalizedProbe);
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="en"><localized-probe></localized-probe></div>`);
    const probe = wrapper.querySelector<LocalizedProbe>('localized-probe')!;
    await probe.updateComplete;
    expect(probe.shadowRoot!.textContent).to.contain('Hello Ana');
    wrapper.setAttribute('lang', 'fr');
    await waitUntil(() => probe.shadowRoot!.textContent!.includes('Bonjour Ana'), 'the French greeting');
  });

  it("keeps a merchant's strings over the built-in ones that arrive later", () => {
    registerMessages({ en: { 'test.order': 'Merchant wording' } });
    registerBuiltInMessages({ 'test.order': 'Built-in wording', 'test.untouched': 'Built-in only' });
    expect(translate('en', 'test.order')).to.equal('Merchant wording');
    expect(translate('en', 'test.untouched')).to.equal('Built-in only');
  });

  it('loads a built-in language on demand, once, and falls back per message', async () => {
    registerBuiltInMessages({ 'marketing.retry': 'Try again' });
    expect(translate('ar-EG', 'marketing.retry')).to.equal('Try again');
    const loading = loadBuiltInMessages('ar-EG');
    expect(loading).to.be.instanceOf(Promise);
    expect(loadBuiltInMessages('ar')).to.be.instanceOf(Promise);
    await loading;
    expect(translate('ar-EG', 'marketing.retry')).to.equal('إعادة المحاولة');
    expect(loadBuiltInMessages('ar-EG')).to.equal(undefined);
    expect(loadBuiltInMessages('de')).to.equal(undefined);
    // Names an object has by inheritance are no languages of ours.
    expect(loadBuiltInMessages('constructor')).to.equal(undefined);
    expect(loadBuiltInMessages('toString')).to.equal(undefined);
    expect(translate('ar', 'test.untouched')).to.equal('Built-in only');
  });

  it('renders the first time already in the language of the page, never English first', async () => {
    registerBuiltInMessages({ 'marketing.retry': 'Try again' });
    const rendered: string[] = [];
    class FirstRenderProbe extends LoyaltyElement {
      override render() {
        return html`<p>${this.locale.t('marketing.retry')}</p>`;
      }
      override updated() {
        rendered.push(this.shadowRoot!.textContent!.trim());
      }
    }
    defineElement('first-render-probe', FirstRenderProbe);
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="fr-BE"><first-render-probe></first-render-probe></div>`,
    );
    await wrapper.querySelector<FirstRenderProbe>('first-render-probe')!.updateComplete;
    expect(rendered).to.deep.equal(['Réessayer']);
  });
});
