/**
 * The one suite for every renderer of a mount's first page: the proxy's (src/proxy/render/) and the
 * WordPress plugin's PHP one. Each renderer is a function from a widget, its attributes and the
 * proxy's answer (as text) to HTML; both must print exactly the markup of the shared cases
 * (test/fixtures/first-page-markup.json), and whatever the answer holds must stay data.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

export type FirstPageRenderer = (
  tag: string,
  attributes: Record<string, string | number | boolean>,
  answer: string,
) => string | Promise<string>;

export interface MarkupCase {
  name: string;
  tag: string;
  attributes: Record<string, string | number | boolean>;
  answer: unknown;
  html: string;
}

export const MARKUP_CASES = JSON.parse(
  readFileSync(new URL('../fixtures/first-page-markup.json', import.meta.url), 'utf8'),
) as MarkupCase[];

const MARKUP_TAG =
  /^<(\/(div|ul|li|h[1-6]|p|address|a|dl|dt|dd)|(div|ul|li|img|h[1-6]|p|address|br|a|dl|dt|dd)( (data-[a-z-]+|src|srcset|sizes|width|height|alt|loading|decoding|referrerpolicy|href|rel)="[^"<>]*")*)>$/;

/** The JSON a printed mount hands to its element, read back as the browser reads a script's text. */
function printedAnswer(html: string): unknown {
  const match = /<script type="application\/json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1]!) : undefined;
}

/** Registers the suite's tests (inside the caller's `describe`) for `render`. */
export function firstPageMarkupSuite(render: FirstPageRenderer): void {
  for (const markupCase of MARKUP_CASES) {
    it(`prints the shared markup: ${markupCase.name}`, async () => {
      const html = await render(markupCase.tag, markupCase.attributes, JSON.stringify(markupCase.answer));
      assert.equal(html, markupCase.html);
    });
  }

  it('keeps hostile upstream strings as text: no element, attribute or script of theirs, no unsafe URL', async () => {
    for (const markupCase of MARKUP_CASES) {
      const html = await render(markupCase.tag, markupCase.attributes, JSON.stringify(markupCase.answer));
      const withoutAnswer = html.replace(/<script type="application\/json">.*?<\/script>/s, '');
      // Every tag is one of the template's, each attribute one of its names with a quoted value that holds
      // no quote: nothing the answer said became markup.
      for (const tag of withoutAnswer.match(/<[^>]*>/g) ?? []) {
        assert.match(tag, MARKUP_TAG, `${markupCase.name}: ${tag}`);
      }
      assert.equal(withoutAnswer.replace(/<[^>]*>/g, '').match(/[<>]/), null, markupCase.name);
      assert.doesNotMatch(withoutAnswer, /="(javascript|data):/, markupCase.name);
      assert.equal((html.match(/<script/g) ?? []).length, html.includes('data-loyalty-first-page') ? 1 : 0);
      if (html.includes('data-loyalty-first-page')) {
        assert.deepEqual(printedAnswer(html), markupCase.answer, 'the answer is handed over as it came');
        assert.doesNotMatch(html.split('<script type="application/json">')[1]!.split('</script>')[0]!, /[<>&\u2028]/);
      }
    }
  });

  it('reads fully without script: every title, subtitle, price, name, address and link is in the HTML', async () => {
    const [carousel, , , coupon, directory] = MARKUP_CASES;
    const html = await render(carousel!.tag, carousel!.attributes, JSON.stringify(carousel!.answer));
    for (const text of ['Harbor beans', 'Harbor beans: the subtitle', '4.99', 'Visit us', 'w=320 320w', 'sizes="auto'])
      assert.ok(html.includes(text), text);
    const claim = await render(coupon!.tag, coupon!.attributes, JSON.stringify(coupon!.answer));
    assert.match(claim, /<h2 data-field="title">Harbor beans<\/h2>.*4\.99/s);
    const shops = await render(directory!.tag, directory!.attributes, JSON.stringify(directory!.answer));
    for (const text of [
      'Harbor Coffee',
      '1 Harbor Road<br>20095 Hamburg',
      'href="tel:+4940123456"',
      'href="https://harbor.example/about"',
    ])
      assert.ok(shops.includes(text), text);
    const shown = shops.split('<script')[0]!;
    assert.ok(
      !shown.includes('Not yet') && !shown.includes('Shoe shop'),
      'pending and other-category businesses are left out',
    );
  });
}
