import { expect, fixture } from '@open-wc/testing';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import { scriptPages, wireAccount, wireCampaign } from '../marketing/helpers.ts';
import { parts, showsOneOf } from '../parts.ts';

// The headings the elements render take their level from `heading-level`, so a page's outline has no
// skipped level (Lighthouse's heading-order): 2 by default, for an element under the page's <h1>.
const tags = (el: Element, part: string) => parts(el, part).map((heading) => heading.localName);

describe('heading levels', () => {
  let script: ReturnType<typeof scriptPages> | undefined;
  afterEach(() => script?.restore());

  /** The element under the page's <h1>, showing two scripted items (or its error). */
  async function mount(tag: string, attributes: string, shown: string): Promise<Element> {
    script =
      tag === 'campaign-carousel'
        ? scriptPages('campaigns', [[wireCampaign('a'), wireCampaign('b')]])
        : scriptPages('businessAccounts', [[wireAccount('a'), wireAccount('b')]]);
    const holder = await fixture(`<section><h1>Shop</h1><${tag} ${attributes}></${tag}></section>`);
    const el = holder.querySelector(tag)!;
    await showsOneOf(el, [shown, 'error']);
    return el;
  }
  const carousel = (attributes: string) => mount('campaign-carousel', attributes, 'slide');
  const directory = (attributes: string) => mount('business-directory', attributes, 'card');

  it('slide titles are <h2> under the page’s <h1> by default, and follow heading-level', async () => {
    expect(tags(await carousel(''), 'title')).to.deep.equal(['h2', 'h2']);
    script?.restore();
    expect(tags(await carousel('heading-level="4"'), 'title')).to.deep.equal(['h4', 'h4']);
  });

  it('business names are <h2> by default, and follow heading-level', async () => {
    expect(tags(await directory(''), 'name')).to.deep.equal(['h2', 'h2']);
    script?.restore();
    expect(tags(await directory('heading-level="3"'), 'name')).to.deep.equal(['h3', 'h3']);
  });

  it('each level from 1 to 6 gives its own heading, with the part, class and text direction', async () => {
    for (const level of [1, 2, 3, 4, 5, 6]) {
      const el = await directory(`heading-level="${level}"`);
      expect(tags(el, 'name'), String(level)).to.deep.equal([`h${level}`, `h${level}`]);
      for (const name of parts(el, 'name')) {
        expect(name.className, String(level)).to.equal('name');
        expect(name.getAttribute('dir'), String(level)).to.equal('auto');
      }
      script?.restore();
    }
  });

  it('a level outside 1 to 6 gives the default', async () => {
    for (const level of ['0', '7', 'two', '2.5']) {
      expect(tags(await carousel(`heading-level="${level}"`), 'title'), level).to.deep.equal(['h2', 'h2']);
      script?.restore();
    }
  });

  it('a carousel under an <h1> passes axe’s heading-order rule', async () => {
    const el = await carousel('');
    await expect(el.parentElement!).to.be.accessible({ runOnly: { type: 'rule', values: ['heading-order'] } } as never);
  });
});
