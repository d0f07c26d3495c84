import { html, type TemplateResult } from 'lit';
import type { Campaign } from '../../marketing/types.ts';
import type { LocaleController } from '../../shared/i18n.ts';
import { renderFailure } from '../internal/status.ts';
import { failureOf, isWaiting, type PagedList } from '../internal/tasks.ts';

type Campaigns = PagedList<readonly unknown[], Campaign>;

/** What the carousel shows in place of its slides, if anything. */
export interface ListStatus {
  /** The first page (or `<coupon-claim>`, with `claim`) is still on its way. */
  waiting: boolean;
  failure: unknown;
  /** Nothing to show: nothing found yet, or (with `empty`) nothing at all. */
  none: boolean;
  /** "No campaigns" only once the list has ended; with a cursor left, more may be found further on. */
  empty: boolean;
}

export function listStatus(campaigns: Campaigns, claimWaiting: boolean): ListStatus {
  const waiting = isWaiting(campaigns.first) || claimWaiting;
  const failure = failureOf(campaigns.first);
  const none = !waiting && !failure && campaigns.items.length === 0;
  return { waiting, failure, none, empty: none && !campaigns.nextToken };
}

/** What the live region says: the search or the empty state, else the slide that "previous" and "next" brought. */
export function statusText(
  { waiting, none, empty }: ListStatus,
  campaigns: Campaigns,
  locale: LocaleController,
  announcement: string,
): string {
  if (waiting) return campaigns.searching ? locale.t('carousel.searching') : '';
  if (!none) return announcement;
  return locale.t(empty ? 'carousel.empty' : campaigns.loadingMore ? 'carousel.searching' : 'carousel.notFoundYet');
}

/** Nothing found within the bound while the list goes on: say so, and offer the way on. */
export function renderNotFoundYet(host: HTMLElement, locale: LocaleController, campaigns: Campaigns): TemplateResult {
  const moreFailure = failureOf(campaigns.more);
  if (moreFailure) return renderFailure(host, locale, moreFailure, () => campaigns.loadMore());
  return html`<div part="empty" class="not-found-yet">
    <p aria-hidden="true">${locale.t(campaigns.loadingMore ? 'carousel.searching' : 'carousel.notFoundYet')}</p>
    <button
      part="keep-looking-button"
      class="button secondary"
      type="button"
      aria-disabled=${campaigns.loadingMore ? 'true' : 'false'}
      @click=${() => campaigns.loadMore()}
    >
      ${locale.t('carousel.keepLooking')}
    </button>
  </div>`;
}
