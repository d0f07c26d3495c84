/**
 * "Is this value the merchant's?" What decides where tokens, claim keys, coupons and sign-in go comes
 * from the merchant alone: the page's real `<head>` (where a CMS plugin prints its settings too).
 * Anything in the body is content, which a less trusted editor may have written: a block can add
 * `<meta>` elements to the body, or a `<form name="head">` that `document.head` then returns, but
 * neither is read here.
 */
import { safeUrl } from './safe-url.ts';
import { withoutTrailingSlash } from './url.ts';

/** The settings a merchant gives in `<meta name="…" content="…">` in the head. */
export type MerchantSetting =
  'loyalty-endpoint' | 'loyalty-token-origins' | 'loyalty-authority' | 'loyalty-client-id' | 'loyalty-redirect-uri';

/** The document's head element, read through `Document.prototype` so that no named element stands in for it. */
function realHead(doc: Document): HTMLHeadElement | undefined {
  const read = Object.getOwnPropertyDescriptor(Document.prototype, 'head')?.get;
  const head: unknown = read?.call(doc);
  return head instanceof HTMLHeadElement ? head : undefined;
}

/**
 * The values of every `<meta name="{name}">` that is a child of the real head, trimmed, empty ones
 * left out. None outside a browser.
 *
 * @example
 * const origins = merchantSettings('loyalty-token-origins');
 */
export function merchantSettings(name: MerchantSetting, doc: Document | undefined = globalThis.document): string[] {
  if (!doc || typeof Document === 'undefined') return [];
  const values: string[] = [];
  for (const child of realHead(doc)?.children ?? []) {
    if (child instanceof HTMLMetaElement && child.name === name && child.content.trim())
      values.push(child.content.trim());
  }
  return values;
}

/**
 * The first value the merchant gave for this setting in the head, or undefined.
 *
 * @example
 * const endpoint = merchantSetting('loyalty-endpoint') ?? '/api/marketing';
 */
export function merchantSetting(name: MerchantSetting, doc?: Document): string | undefined {
  return merchantSettings(name, doc)[0];
}

/**
 * The sign-in the merchant pinned for the page: `<meta name="loyalty-authority">` (as sign-in uses it:
 * a URL without a trailing slash) and `<meta name="loyalty-client-id">` in the head (each may be absent).
 */
export function merchantSignIn(doc?: Document): { authority?: string; clientId?: string } {
  const written = merchantSetting('loyalty-authority', doc);
  const authority = written && withoutTrailingSlash(safeUrl(written) ?? written);
  const clientId = merchantSetting('loyalty-client-id', doc);
  return { ...(authority && { authority }), ...(clientId && { clientId }) };
}
