/**
 * A widget's mount with its first page inside, printed on the server: the same
 * `<div data-loyalty-widget="…">` an editor writes, holding the first page as HTML (it paints with
 * the page, reads without script and is what a crawler indexes) and the proxy's answer it came from,
 * which the script tag hands to the element in place of asking again. Display only: the element still
 * checks that answer as it checks any, and everything it does (later pages, claims) goes to the proxy.
 * Read through the proxy's own operation path and cache, so a cached page costs no upstream call.
 */
import { firstRequest } from '../../shared/first-request.ts';
import { FIRST_PAGE_ATTRIBUTE, MOUNT_ATTRIBUTE } from '../../shared/mount-attributes.ts';
import type { MarketingProxyHandler } from '../app/options.ts';
import { displayModel } from '../../marketing/first-page-display.ts';
import { escapeHtml, printTemplate } from '../../marketing/first-page-markup.ts';
import { FIRST_PAGE_TEMPLATES } from '../../marketing/first-page-template.ts';

/** The attributes of the element a mount becomes, by the element's names (`limit`, `campaign-id`, `claim`). */
export type WidgetAttributes = Record<string, string | number | boolean | null | undefined>;

const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;

/** The characters a `<script>` element's JSON may not carry as they are: `</script>`, and JavaScript's line ends. */
const SCRIPT_ESCAPES = /[<>&\u2028\u2029]/g;

/** The proxy's answer as the text of a `<script type="application/json">`: the same JSON, nothing that ends the element. */
export function scriptJson(body: string): string {
  return body.replace(SCRIPT_ESCAPES, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function checkedAttributes(tag: string, attributes: WidgetAttributes): [string, string][] {
  if (!Object.hasOwn(FIRST_PAGE_TEMPLATES, tag)) {
    throw new TypeError(
      `renderFirstPage: "${tag}" has no first page; use one of ${Object.keys(FIRST_PAGE_TEMPLATES).join(', ')}.`,
    );
  }
  const written: [string, string][] = [];
  for (const name of Object.keys(attributes).sort()) {
    if (!ATTRIBUTE_NAME.test(name) || name === 'widget' || name === 'loyalty-first-page') {
      throw new TypeError(`renderFirstPage: "${name}" is not an attribute of <${tag}>.`);
    }
    const value = attributes[name];
    if (value === undefined || value === null || value === false) continue;
    written.push([name, value === true ? '' : String(value)]);
  }
  return written;
}

/**
 * The mount of `tag` with `attributes`, and inside it the first page of `answer` (the proxy's JSON
 * answer to the element's first request, as text). Without an answer, or with one the elements would
 * refuse, the bare mount: the element then asks for its first page itself.
 */
export function renderMount(tag: string, attributes: WidgetAttributes, answer?: string): string {
  const written = checkedAttributes(tag, attributes);
  const mount = `<div ${MOUNT_ATTRIBUTE}="${tag}"${written.map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`).join('')}>`;
  const firstPage = answer === undefined ? '' : printFirstPage(tag, new Map(written), answer);
  return `${mount}${firstPage}</div>`;
}

function printFirstPage(tag: string, attributes: ReadonlyMap<string, string>, answer: string): string {
  let markup: string;
  try {
    markup = printTemplate(
      FIRST_PAGE_TEMPLATES[tag]!,
      displayModel(tag, JSON.parse(answer), (name) => attributes.get(name)),
    );
  } catch {
    return '';
  }
  const operation = firstRequest(tag, (name) => attributes.get(name) ?? null)![0];
  return `<div ${FIRST_PAGE_ATTRIBUTE}="${operation}">${markup}<script type="application/json">${scriptJson(answer)}</script></div>`;
}

/** The query string of a read, variables in name order (as the browser's client writes it). */
function readQuery(operation: string, variables: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams({ operation });
  for (const name of Object.keys(variables).sort()) {
    const value = variables[name];
    if (value !== undefined && value !== '') search.append(name, String(value));
  }
  return search.toString();
}

/**
 * A widget's mount with its first page inside, read through `proxy` (the handler
 * `createMarketingProxy` returned, so its cache and its limits apply): HTML to print where the widget
 * goes, in Express, a Next.js server component or any Fetch host. When the proxy cannot answer, the
 * bare mount, whose element asks for its first page itself.
 *
 * @example
 * ```ts
 * import { createMarketingProxy, renderFirstPage } from 'loyalty-widgets/proxy';
 *
 * const marketing = createMarketingProxy({ upstreamUrl: 'https://marketing.example/graphql', apiKey: 'key' });
 * const carousel = await renderFirstPage(marketing, 'campaign-carousel', { limit: 6, claim: true });
 * // Express: res.send(`…<main>${carousel}</main>…`); Next.js: <div dangerouslySetInnerHTML={{ __html: carousel }} />
 * ```
 */
export async function renderFirstPage(
  proxy: MarketingProxyHandler,
  tag: string,
  attributes: WidgetAttributes = {},
): Promise<string> {
  const written = new Map(checkedAttributes(tag, attributes));
  const request = firstRequest(tag, (name) => written.get(name) ?? null);
  // A mount with its own endpoint reads from there, and a coupon without a campaign reads nothing.
  if (!request || written.get('endpoint')?.trim()) return renderMount(tag, attributes);
  const response = await proxy(new Request(`http://first-page.invalid/?${readQuery(...request)}`));
  if (response.status !== 200) {
    await response.body?.cancel();
    return renderMount(tag, attributes);
  }
  return renderMount(tag, attributes, await response.text());
}
