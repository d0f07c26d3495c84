import { merchantSettings } from '../shared/merchant.ts';

/**
 * Whether the shopper's tokens may go to this endpoint: this page's own origin, or one the merchant
 * listed in `<meta name="loyalty-token-origins" content="https://api.shop.example ...">` in the
 * document's real head. Only the head counts: page content (a CMS block, even one with a
 * `<form name="head">` that `document.head` would return) must not be able to add an origin, nor
 * point an element's `endpoint` at a server that would collect signed-in shoppers' tokens.
 */
export function tokenOriginAllowed(endpoint: string): boolean {
  const origin = new URL(endpoint).origin;
  if (origin === globalThis.location?.origin) return true;
  for (const listed of merchantSettings('loyalty-token-origins')) {
    for (const entry of listed.split(/[\s,]+/)) {
      try {
        if (entry && new URL(entry).origin === origin && /^https?:$/.test(new URL(entry).protocol)) return true;
      } catch {
        // Not an origin: ignored.
      }
    }
  }
  return false;
}
