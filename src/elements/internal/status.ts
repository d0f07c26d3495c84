/** Rendering shared by the Marketing elements: the failure block with its retry control, and the loading skeleton. */
import { html, nothing, type TemplateResult } from 'lit';
import type { LocaleController } from '../../shared/i18n.ts';
import { MarketingError } from '../../marketing/errors.ts';
import { warnOnce } from '../../shared/warn.ts';
import { errorMessage, isSetupFailure } from './error-message.ts';
import { retryKeepingFocus } from './focus.ts';

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

/** Grey boxes in the shape of what is loading; hidden from assistive technology (the host is `aria-busy`). */
export function renderSkeleton(count: number, className: string): TemplateResult {
  return html`${Array.from({ length: count }, () => html`<div part="skeleton" class="skeleton ${className}" aria-hidden="true"></div>`)}`;
}
