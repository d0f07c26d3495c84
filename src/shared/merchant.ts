/**
 * "Is this value the merchant's?" What decides where tokens, claim keys, coupons and sign-in go comes
 * from the merchant alone: the page's real `<head>` (where a CMS plugin prints its settings too).
 * Anything in the body is content, which a less trusted editor may have written: a block can add
 * `<meta>` elements to the body, or a `<form name="head">` that `document.head` then returns, but
 * neither is read here. A setting found outside the head is named once in the console, so a merchant
 * who pasted it into the body learns where it goes.
 */
import { pageHead, queryAll } from './page.ts';
import { safeUrl } from './safe-url.ts';
import { withoutTrailingSlash } from './url.ts';

/** The settings a merchant gives in `<meta name="…" content="…">` in the head. */
export type MerchantSetting =
  | 'loyalty-endpoint'
  | 'loyalty-token-origins'
  | 'loyalty-authority'
  | 'loyalty-client-id'
  | 'loyalty-redirect-uri'
  | 'loyalty-storage';

/** The settings already looked for outside the head, each named in the console at most once. */
const looked = new Set<MerchantSetting>();

/**
 * The values of every `<meta name="{name}">` that is a child of the real head, trimmed, empty ones
 * left out. None outside a browser.
 *
 * @example
 * const origins = merchantSettings('loyalty-token-origins');
 */
export function merchantSettings(name: MerchantSetting): string[] {
  const head = pageHead();
  if (!head) return [];
  if (!looked.has(name)) {
    looked.add(name);
    if ([...queryAll(document, `meta[name="${name}"]`)].some((meta) => meta.parentNode !== head))
      console.warn(`loyalty-widgets: <meta name="${name}"> outside the <head> is ignored; put it in the <head>.`);
  }
  const values: string[] = [];
  for (const child of head.children) {
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
export function merchantSetting(name: MerchantSetting): string | undefined {
  return merchantSettings(name)[0];
}

/**
 * The sign-in the merchant pinned for the page: `<meta name="loyalty-authority">` (as sign-in uses it:
 * a URL without a trailing slash) and `<meta name="loyalty-client-id">` in the head (each may be absent).
 */
export function merchantSignIn(): { authority?: string; clientId?: string } {
  const written = merchantSetting('loyalty-authority');
  const authority = written && withoutTrailingSlash(safeUrl(written) ?? written);
  const clientId = merchantSetting('loyalty-client-id');
  return { ...(authority && { authority }), ...(clientId && { clientId }) };
}
