/**
 * Rendering shared by the Marketing elements: the failure block with its retry control, the
 * loading skeleton, and price formatting.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { LocaleController } from '../../shared/i18n.ts';
import { isUpstreamFailure, MarketingError } from '../../marketing/errors.ts';
import { warnOnce } from '../../shared/warn.ts';

const KNOWN = new Set(['network', 'signin_required', 'invalid_response', 'config']);
/**
 * Failures of the merchant's set-up, not of the moment: a bad attribute (`config`), or a proxy whose
 * Marketing key is refused or whose upstream's schema cannot serve the call. Trying again cannot help.
 */
const SETUP_CODES = new Set(['config', 'upstream_key_refused', 'upstream_schema_mismatch']);

const isSetupFailure = (error: unknown): boolean => error instanceof MarketingError && SETUP_CODES.has(error.code);
const BY_STATUS: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' };

/** A shopper-facing, localized sentence for any failure. */
export function errorMessage(locale: LocaleController, error: unknown): string {
  if (!(error instanceof MarketingError)) return locale.t('marketing.error.other');
  if (isSetupFailure(error)) return locale.t('marketing.error.config');
  if (error.code === 'rate_limited' || error.code === 'upstream_throttled' || error.status === 429) {
    if (error.retryAfter === undefined) return locale.t('marketing.error.rate_limited_soon');
    const when = relativeTime(locale.lang, Math.max(1, error.retryAfter));
    return locale.t('marketing.error.rate_limited', { when });
  }
  if (isUpstreamFailure(error)) return locale.t('marketing.error.unavailable');
  return locale.t(`marketing.error.${KNOWN.has(error.code) ? error.code : (BY_STATUS[error.status] ?? 'other')}`);
}

/** "in 30 seconds", "in 5 minutes", "in 2 hours": a wait in the unit a shopper would use. */
function relativeTime(lang: string, seconds: number): string {
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (seconds < 90) return format.format(seconds, 'second');
  if (seconds < 3600) return format.format(Math.ceil(seconds / 60), 'minute');
  return format.format(Math.ceil(seconds / 3600), 'hour');
}

/**
 * The failure block: a message and a native retry button. A set-up mistake (`config`: no campaign id,
 * an endpoint that is not a web address; or the proxy's key refused by the Marketing API) is told to
 * the developer in the console, once, and has no retry button, since trying again cannot help until
 * the set-up is corrected.
 */
export function renderFailure(
  host: HTMLElement,
  locale: LocaleController,
  error: unknown,
  retry: () => void,
): TemplateResult {
  const config = error instanceof MarketingError && isSetupFailure(error);
  if (config) {
    warnOnce(
      host,
      error.code === 'config'
        ? error.message
        : `The Marketing proxy reports a set-up problem (${error.code}): ${error.message} Run "loyalty-proxy doctor" where the proxy runs.`,
    );
  }
  const onRetry = (event: Event): void => retryKeepingFocus(host, event, retry);
  return html`<div part="error" class="error" role="alert">
    <p>${errorMessage(locale, error)}</p>
    ${
      config
        ? nothing
        : html`<button part="retry-button" class="button secondary" type="button" @click=${onRetry}>${locale.t('marketing.retry')}</button>`
    }
  </div>`;
}

/**
 * Runs a retry. The pressed button disappears with the failure, so a keyboard or screen-reader user
 * would be left on the page's `body`: focus moves to the element's `base` part, which stays.
 */
function retryKeepingFocus(host: HTMLElement, event: Event, retry: () => void): void {
  const button = event.currentTarget as HTMLElement;
  const hadFocus = button.matches(':focus');
  retry();
  const base = host.shadowRoot?.querySelector<HTMLElement>('[part~="base"]');
  if (!hadFocus || !base) return;
  if (!base.hasAttribute('tabindex')) base.tabIndex = -1;
  base.focus({ preventScroll: true });
}

/** Grey boxes in the shape of what is loading; hidden from assistive technology (the host is `aria-busy`). */
export function renderSkeleton(count: number, className: string): TemplateResult {
  return html`${Array.from({ length: count }, () => html`<div part="skeleton" class="skeleton ${className}" aria-hidden="true"></div>`)}`;
}

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
