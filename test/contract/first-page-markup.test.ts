/**
 * One markup, two renderers: the WordPress plugin's PHP renderer of a mount's first page
 * (integrations/wordpress/includes/first-page/) under the same shared suite as the Node proxy's
 * (test/node/proxy/render/first-page-render.test.ts), fed the contract.json the build writes; and, beside it, the
 * PHP's readings the markup depends on held to the Node code they copy, input by input: URLs as the
 * browser writes them back, attribute values as JavaScript reads numbers and whitespace, and the
 * element's first request.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { proxyContractJson } from '../../scripts/proxy-contract.ts';
import { renderMount } from '../../src/proxy/index.ts';
import { firstRequest } from '../../src/shared/first-request.ts';
import { propertyLabel } from '../../src/shared/property-label.ts';
import { safeUrl } from '../../src/shared/safe-url.ts';
import { firstPageMarkupSuite, MARKUP_CASES, type MarkupCase } from '../support/first-page-markup.ts';
import { unshielded } from '../wordpress/support/site.ts';
import { wordPressSkip } from '../wordpress/support/wordpress.ts';

const skip = wordPressSkip();
if (skip) console.warn(`Skipping the WordPress plugin’s renderer: ${skip}`);

const PLUGIN = fileURLToPath(new URL('../../integrations/wordpress', import.meta.url));
const HARNESS = fileURLToPath(new URL('./support/plugin-functions.php', import.meta.url));

describe('first page markup: the WordPress plugin’s renderer', { skip }, () => {
  const contractFolder = mkdtempSync(join(tmpdir(), 'loyalty-first-page-'));
  writeFileSync(join(contractFolder, 'contract.json'), proxyContractJson());
  after(() => rmSync(contractFolder, { recursive: true, force: true }));

  /** Calls plugin functions in one PHP process; their results, in order. */
  const php = (...calls: [name: string, ...args: unknown[]][]): unknown[] => {
    const run = spawnSync(
      'php',
      ['-d', 'display_errors=stderr', '-d', 'error_reporting=-1', HARNESS, PLUGIN, contractFolder],
      {
        input: JSON.stringify(calls.map(([name, ...args]) => ({ function: name, arguments: args }))),
        encoding: 'utf8',
      },
    );
    // A notice or warning is a failure too: WordPress would log it on every page view.
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
    return JSON.parse(run.stdout) as unknown[];
  };
  const renderPhp = (tag: string, attributes: Record<string, unknown>, answer?: string): unknown =>
    php(['loyalty_widgets_render_mount', tag, attributes, answer ?? null])[0];

  firstPageMarkupSuite((tag, attributes, answer) => renderPhp(tag, attributes, answer) as string);

  it('refuses a widget without a first page and an attribute name that is not one, as the Node renderer does', () => {
    const [noPage, badName, widget] = php(
      ['loyalty_widgets_render_mount', 'loyalty-signin-button', {}],
      ['loyalty_widgets_render_mount', 'campaign-carousel', { 'onclick="x"': 1 }],
      ['loyalty_widgets_render_mount', 'campaign-carousel', { widget: 'coupon-claim' }],
    );
    assert.match((noPage as { error: string }).error, /has no first page; use one of campaign-carousel/);
    assert.match((badName as { error: string }).error, /is not an attribute of <campaign-carousel>/);
    assert.match((widget as { error: string }).error, /is not an attribute/);
  });

  it('prints the bare mount without an answer, and for an answer that is not JSON', () => {
    const [bare, notJson] = php(
      ['loyalty_widgets_render_mount', 'business-directory', { limit: 3 }, null],
      ['loyalty_widgets_render_mount', 'business-directory', { limit: 3 }, '<html>'],
    );
    assert.equal(bare, renderMount('business-directory', { limit: 3 }));
    assert.equal(notJson, renderMount('business-directory', { limit: 3 }, '<html>'));
    assert.equal(notJson, '<div data-loyalty-widget="business-directory" data-limit="3"></div>');
  });

  it('refuses the answers the elements refuse, and takes the ones they take, value by value', () => {
    const [carousel, , , coupon, directory] = MARKUP_CASES as [
      MarkupCase,
      MarkupCase,
      MarkupCase,
      MarkupCase,
      MarkupCase,
    ];
    /** A case's answer with one value changed at `path` (dots and list indexes), or removed for undefined. */
    const changed = (markupCase: MarkupCase, path: string, value: unknown): [MarkupCase, string] => {
      const answer = structuredClone(markupCase.answer) as Record<string, unknown>;
      const keys = path.split('.');
      const parent = keys
        .slice(0, -1)
        .reduce<Record<string, unknown>>((at, key) => at[key] as Record<string, unknown>, answer);
      if (value === undefined) delete parent[keys.at(-1)!];
      else parent[keys.at(-1)!] = value;
      return [markupCase, JSON.stringify(answer)];
    };
    const campaign = 'data.campaigns.items.0';
    const account = 'data.businessAccounts.items.0';
    const variants: [MarkupCase, string][] = [
      [carousel, '[]'],
      [carousel, '{"data":[]}'],
      [carousel, '{"data":{}}'],
      [carousel, '{"data":{"campaigns":{"items":{}}}}'],
      changed(carousel, 'data.campaigns.nextToken', 7),
      changed(carousel, 'data.campaigns.nextToken', ''),
      changed(carousel, `${campaign}.id`, 7),
      changed(carousel, `${campaign}.id`, undefined),
      changed(carousel, `${campaign}.businessAccountId`, false),
      changed(carousel, `${campaign}.content`, []),
      changed(carousel, `${campaign}.content.title`, 7),
      changed(carousel, `${campaign}.content.title`, undefined),
      changed(carousel, `${campaign}.content.subtitle`, ['x']),
      changed(carousel, `${campaign}.content.img640`, 'https://images.example/a.jpg'),
      changed(carousel, `${campaign}.content.img640`, { url: 7 }),
      changed(carousel, `${campaign}.content.img2000`, { url: 'https://images.example/wide.jpg' }),
      changed(carousel, `${campaign}.content.img0640`, 'not an image'),
      changed(carousel, `${campaign}.content.objective`, 'coupon'),
      changed(carousel, `${campaign}.content.objective.__typename`, 7),
      changed(carousel, `${campaign}.content.objective.price`, 4.5),
      changed(carousel, `${campaign}.content.objective.price`, 4),
      changed(carousel, `${campaign}.content.objective.price`, 1e21),
      changed(carousel, `${campaign}.content.objective.price`, { amount: 4 }),
      changed(coupon, 'data.campaign', undefined),
      changed(coupon, 'data.campaign.content.title', null),
      changed(directory, `${account}.pending`, 'no'),
      changed(directory, `${account}.pending`, undefined),
      changed(directory, `${account}.name`, 7),
      changed(directory, `${account}.name`, ''),
      changed(directory, `${account}.category`, 'CAFE'),
      changed(directory, `${account}.address`, '1 Harbor Road'),
      changed(directory, `${account}.address.city`, 20095),
      changed(directory, `${account}.phoneNumber`, 123),
      changed(directory, `${account}.phoneNumber`, ' +1 (555) 0100'),
      changed(directory, `${account}.websiteUrl`, 7),
      changed(directory, `${account}.websiteUrl`, 'https://Harbor.example:8443/about'),
      changed(directory, `${account}.logo`, 'https://images.example/harbor.png'),
      changed(directory, `${account}.customProperties`, {}),
      changed(directory, `${account}.customProperties`, [{ key: 7, value: 'x' }]),
      changed(directory, `${account}.customProperties`, [{ key: 'k', value: null }]),
    ];
    const printed = php(
      ...variants.map(([{ tag, attributes }, answer]): [string, ...unknown[]] => [
        'loyalty_widgets_render_mount',
        tag,
        attributes,
        answer,
      ]),
    );
    variants.forEach(([{ tag, attributes }, answer], index) => {
      assert.equal(printed[index], renderMount(tag, attributes, answer), `${tag}: ${answer}`);
    });
  });

  it('shields a printed page from WordPress’s content filters without changing what a browser reads', () => {
    // Every case, and a campaign whose text holds what each filter acts on.
    const triggers = structuredClone(MARKUP_CASES[0]!) as MarkupCase & {
      answer: { data: { campaigns: { items: { content: { title: string; subtitle: string } }[] } } };
    };
    triggers.name = 'a campaign with a shortcode, dashes, dots, smilies, a product sign and “Wordpress” in its text';
    triggers.answer.data.campaigns.items[0]!.content.title = '[gallery ids="1"] [/x] -- --- a - b ... (tm) `x` 1x2';
    triggers.answer.data.campaigns.items[0]!.content.subtitle = ':) ;) :-) 8) 8O :mrgreen: Wordpress &#45; &amp;';
    const cases = [...MARKUP_CASES, triggers];
    const shielded = php(
      ...cases.map(({ tag, attributes, answer }): [string, ...unknown[]] => [
        'loyalty_widgets_shielded',
        renderMount(tag, attributes, JSON.stringify(answer)),
      ]),
    ) as string[];
    cases.forEach(({ name, tag, attributes, answer }, index) => {
      const html = shielded[index]!;
      assert.equal(unshielded(html), renderMount(tag, attributes, JSON.stringify(answer)), name);
      // What do_shortcode, wptexturize and convert_smilies look for; in the answer, a shortcode's start.
      const [markup, json = ''] = html.split(/<script type="application\/json">|<\/script>/);
      assert.doesNotMatch(markup!, /\[|\]|--|\.\.\.|(^|[\s>])[:;8]-?[)O]|\dx\d|\(tm\)|`|Wordpress/, name);
      assert.doesNotMatch(json, /\[[\w/]/, name);
      // And every reference whole: the renderer's entities are left as they are.
      assert.doesNotMatch(markup!, /&(?!(amp|lt|gt|quot|#\d+);)/, name);
    });
  });

  it('writes every URL back as the browser does, and refuses the same ones', () => {
    const urls = [
      'https://images.example/a.jpg?w=640',
      'HTTPS://Images.EXAMPLE:443/a/./b/../c.jpg',
      'https://user:pa:ss@example.com/',
      'https://@example.com/',
      'https://user@/x',
      'https:\\\\example.com\\a\\b',
      'https:example.com',
      'https:///example.com/x',
      '  https://example.com/ \t\n',
      'https://exa\tmple.com/pa\nth',
      'https://example.com/a b/"c"/<d>/`e`/{f}/^g^/|h|?q="1"&r=\'2\' <3>`#frag "x" <y> `z` {w}',
      'https://example.com/%2e/a/%2E%2e/b/.%2e/c/..',
      'https://example.com/a/..',
      'https://example.com/a/.',
      'https://example.com?x',
      'https://example.com#x',
      'https://example.com/?',
      'https://example.com/#',
      'https://example.com:0443/',
      'https://example.com:8443/',
      'https://example.com:/',
      'https://example.com:65536/',
      'https://example.com:x/',
      'http://example.com/',
      'http://localhost:4002/img.png',
      'http://LOCALHOST/',
      'http://127.0.0.1:80/',
      'http://shop.localhost/',
      'http://[::1]:8080/',
      'http://[0:0:0:0:0:0:0:1]/',
      'https://[2001:DB8:0:0:1:0:0:1]/',
      'https://[::ffff:1.2.3.4]/',
      'https://[::ffff:1.02.3.4]/',
      'https://[1::2::3]/',
      'https://[::1%25eth0]/',
      'https://[::1/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://2130706433/',
      'https://1.2.3.4.5/',
      'https://256.1.1.1/',
      'https://09.1.1.1/',
      'https://1.2.3.4./',
      'https://example.123/',
      'https://%45xample.com/',
      'https://exa%20mple.com/',
      'https://exa%2fmple.com/',
      'https://a..b./',
      'https://_under.example/',
      'https://a"b.example/',
      'https://example.com/\u00e9t\u00e9?caf\u00e9#\u00e9',
      'https://example.com/\u{1F600}',
      'https://example.com/%zz%41',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/',
      '//example.com/x',
      '/relative',
      '',
      `https://example.com/${'a'.repeat(2030)}`,
      `https://example.com/${'a'.repeat(2029)}`,
      42,
      null,
    ];
    const printed = php(...urls.map((url): [string, unknown] => ['loyalty_widgets_safe_url', url]));
    urls.forEach((url, index) => {
      assert.equal(printed[index], safeUrl(url) ?? null, JSON.stringify(url));
    });
  });

  it('reads a property key as words as the directory does: byte for byte for ASCII keys, and for others with mbstring', () => {
    const ascii = [
      'openingHours',
      'opening_hours',
      'parking-spots',
      'wifiSSID',
      'ACRONYMWord',
      'HTTPServer2Go',
      'a1B2C',
      'x',
      'X',
      'iOS',
      'URL',
      'already words',
      '  padded\tkey ',
      'trailing_',
      '--',
      '',
      ' ',
      'snake__case--and  space',
      'line\u2028break',
      'a\u00a0b',
    ];
    const others = ['öffnungsZeiten', 'ÉtéHiver', 'straße', 'éA', 'çaVa', 'ΑθήναΚέντρο', 'emoji😀Key'];
    const mbstring = spawnSync('php', ['-r', 'echo extension_loaded("mbstring") ? "yes" : "no";'], {
      encoding: 'utf8',
    }).stdout;
    const keys = [...ascii, ...others];
    const labels = php(...keys.map((key): [string, string] => ['loyalty_widgets_property_label', key]));
    keys.forEach((key, index) => {
      if (index < ascii.length || mbstring === 'yes')
        assert.equal(labels[index], propertyLabel(key), JSON.stringify(key));
      // Without mbstring only ASCII letters change case: the same words, a letter's case may differ.
      else assert.equal((labels[index] as string).toLowerCase(), propertyLabel(key).toLowerCase(), JSON.stringify(key));
    });
  });

  it('reads heading levels, limits, ids and categories as the elements read their attributes', () => {
    const values = [
      '3',
      ' 3 ',
      '3.0',
      '1e0',
      '0x3',
      '+3',
      '\u00a04\u2028',
      '',
      '0',
      '7',
      '2.5',
      'x',
      'Infinity',
      true,
      6,
    ];
    const answer = JSON.stringify(MARKUP_CASES[3]!.answer);
    const attributes = values.map((value) => ({ 'campaign-id': 'camp-harbor-beans', 'heading-level': value }));
    const printed = php(
      ...attributes.map((written): [string, ...unknown[]] => [
        'loyalty_widgets_render_mount',
        'coupon-claim',
        written,
        answer,
      ]),
    );
    attributes.forEach((written, index) => {
      assert.equal(printed[index], renderMount('coupon-claim', written, answer), JSON.stringify(written));
    });

    const reads: [string, Record<string, string>][] = [
      ['campaign-carousel', {}],
      ['campaign-carousel', { limit: '3', 'business-account-id': ' biz-1 ' }],
      ['campaign-carousel', { limit: '51', 'business-account-id': '\u2028' }],
      ['campaign-carousel', { limit: '0x10' }],
      ['campaign-carousel', { limit: '' }],
      ['business-directory', { limit: '2.0', category: ' Cafe ' }],
      ['business-directory', { limit: 'many' }],
      ['coupon-claim', { 'campaign-id': ' camp-1 ' }],
      ['coupon-claim', { 'campaign-id': ' ' }],
      ['coupon-claim', {}],
    ];
    const requests = php(
      ...reads.map(([tag, read]): [string, ...unknown[]] => ['loyalty_widgets_first_request', tag, read]),
    );
    reads.forEach(([tag, read], index) => {
      const request = firstRequest(tag, (name) => read[name] ?? null);
      const expected = request && [
        request[0],
        Object.fromEntries(Object.entries(request[1]).filter(([, value]) => value !== undefined)),
      ];
      assert.deepEqual(requests[index], expected ?? null, `${tag} ${JSON.stringify(read)}`);
    });
  });
});
