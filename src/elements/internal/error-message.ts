/** The shopper-facing sentence for a failure of the Marketing elements, in the shopper's language. */
import type { LocaleController } from '../../shared/i18n.ts';
import { isUpstreamFailure, MarketingError } from '../../marketing/errors.ts';

const KNOWN = new Set(['network', 'signin_required', 'invalid_response', 'config']);
/**
 * Failures of the merchant's set-up, not of the moment: a bad attribute (`config`), or a proxy whose
 * Marketing key is refused or whose upstream's schema cannot serve the call. Trying again cannot help.
 */
const SETUP_CODES = new Set(['config', 'upstream_key_refused', 'upstream_schema_mismatch']);

/** Whether the failure is a set-up mistake (see SETUP_CODES), which a retry cannot mend. */
export const isSetupFailure = (error: unknown): boolean =>
  error instanceof MarketingError && SETUP_CODES.has(error.code);
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
