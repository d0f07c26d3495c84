/** Prices as the shopper reads them, in the merchant's currency when it is a known one. */
import { warnOnce } from '../../shared/warn.ts';

/**
 * A price as the shopper should read it: with `Intl.NumberFormat` when it is a plain number and the
 * merchant set a currency, otherwise exactly as the API gave it (free text such as "10% off").
 */
export function formatPrice(price: string | null, lang: string, currency: string | undefined): string {
  if (price === null) return '';
  const trimmed = price.trim();
  if (currency && /^-?\d+(\.\d+)?$/.test(trimmed)) {
    try {
      return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(Number(trimmed));
    } catch {
      // An unknown currency code: fall through to the text as given.
    }
  }
  return price;
}

/**
 * The merchant's `currency` as an upper-case ISO 4217 code this browser knows (`eur` is `EUR`), or
 * undefined with a console warning, once, for anything else: prices are then shown as given.
 */
export function currencyOf(host: HTMLElement, value: string | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  if (!code) return undefined;
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : undefined;
  if (/^[A-Z]{3}$/.test(code) && (!known || known.includes(code))) return code;
  warnOnce(
    host,
    `currency="${value}" is not an ISO 4217 currency code such as EUR; prices are shown as the loyalty service gives them.`,
  );
  return undefined;
}
