import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { read } from '../../marketing/requests.ts';
import { parseBusinessAccountPage } from '../../marketing/business-accounts.ts';
import { DIRECTORY_PAGE_SIZE } from '../../shared/page-size.ts';
import type { BusinessAccount } from '../../marketing/types.ts';
import { resolveEndpoint } from '../../shared/config.ts';
import { themeStyles } from '../../shared/theme.styles.ts';
import { renderFailure, renderSkeleton } from '../internal/status.ts';
import { heading, headingLevel } from '../internal/heading.ts';
import { MarketingElement } from '../internal/marketing-element.ts';
import { statusStyles } from '../internal/status.styles.ts';
import { failureOf, isWaiting, PagedList, pageSize } from '../internal/tasks.ts';
import { businessDirectoryStyles } from './business-directory.styles.ts';
import { directoryMessages } from './business-directory.messages.ts';
import { propertyLabel } from '../../shared/property-label.ts';
import { telHref } from '../../shared/tel-href.ts';

/**
 * @summary The loyalty program's approved businesses: logo, name, category, description, address,
 * phone, website and the program's own properties, page by page.
 * @tag business-directory
 *
 * @csspart base - The wrapper of the whole directory.
 * @csspart list - The list of businesses.
 * @csspart item - One business (a list item).
 * @csspart card - The card inside an item.
 * @csspart logo - A business's logo.
 * @csspart name - A business's name (a heading).
 * @csspart category - A business's category.
 * @csspart description - A business's description.
 * @csspart address - A business's postal address.
 * @csspart phone - The phone link.
 * @csspart website - The website link.
 * @csspart properties - The definition list of the program's custom properties.
 * @csspart load-more-button - The button that loads the next page.
 * @csspart empty - The message shown when there is no business.
 * @csspart error - A failure message with its retry button.
 * @csspart retry-button - The retry button of a failure.
 * @csspart skeleton - A placeholder shown while loading.
 *
 * @cssproperty --loyalty-color-primary - Links and buttons.
 * @cssproperty --loyalty-color-on-primary - Text on primary buttons.
 * @cssproperty --loyalty-color-surface - Card background.
 * @cssproperty --loyalty-color-text - Text colour.
 * @cssproperty --loyalty-color-muted - Secondary text (category, property names).
 * @cssproperty --loyalty-color-border - Card borders and skeletons.
 * @cssproperty --loyalty-color-danger - Failure border.
 * @cssproperty --loyalty-radius - Corner radius.
 * @cssproperty --loyalty-spacing - Base spacing.
 * @cssproperty --loyalty-focus-color - The keyboard focus outline (default a deep blue, white in the dark scheme).
 * @cssproperty --loyalty-focus-halo - The ring around the focus outline (default white, near-black in the dark scheme); keep it at least 9:1 from --loyalty-focus-color.
 * @cssproperty --loyalty-directory-card-min-width - Narrowest card before the grid wraps (default 16rem).
 */
export class BusinessDirectory extends MarketingElement {
  static override styles = [themeStyles, statusStyles, businessDirectoryStyles];
  /** @internal */
  protected static override messages = directoryMessages;
  /** @internal The reactive properties, each documented at its field. */
  static override properties: PropertyDeclarations = {
    category: {},
    limit: { type: Number },
    headingLevel: { attribute: 'heading-level', type: Number },
  };

  /** Shows only businesses of this category. */
  declare category?: string;

  /**
   * How many businesses to load per page (1 to 50). A page that shows no business (empty, or only
   * pending ones) but has more to come is read past at once, up to 5 in a row.
   */
  limit = 12; // DIRECTORY_PAGE_SIZE, written out for the manifest

  /**
   * The level of each business's name heading (1 to 6): one below the heading the directory sits
   * under. Default 2, for a directory under the page's `<h1>`.
   */
  headingLevel: number = 2;

  // A page of only pending (or other-category) accounts shows nothing, so the next one is read at once.
  readonly #accounts = new PagedList(
    this,
    ([endpoint, category, limit], nextToken, signal) =>
      read(endpoint, 'businessAccounts', { category, limit, nextToken }, parseBusinessAccountPage, signal),
    () =>
      [
        resolveEndpoint(this.endpoint),
        this.category?.trim() || undefined,
        pageSize(this, this.limit, DIRECTORY_PAGE_SIZE),
      ] as const,
    (account) => this.#shows(account),
  );

  /** Approved and of the chosen category: a pending account is never shown, whatever the proxy sent. */
  #shows(account: BusinessAccount): boolean {
    const category = this.category?.trim().toLowerCase();
    return !account.pending && (!category || account.category.toLowerCase() === category);
  }

  get #visible(): BusinessAccount[] {
    return this.#accounts.items.filter((account) => this.#shows(account));
  }

  override render(): TemplateResult {
    const { locale } = this;
    const accounts = this.#accounts;
    const waiting = isWaiting(accounts.first);
    const failure = failureOf(accounts.first);
    const visible = this.#visible;
    const empty = !waiting && !failure && visible.length === 0 && !accounts.nextToken;
    const status =
      waiting || failure
        ? ''
        : empty
          ? locale.t('directory.empty')
          : visible.length
            ? locale.t('directory.count', { count: visible.length })
            : '';
    return html`<section part="base" aria-label=${locale.t('directory.label')} aria-busy=${waiting ? 'true' : 'false'}>
      ${
        waiting
          ? html`<div class="list skeletons">${renderSkeleton(3, 'card-skeleton')}</div>`
          : failure
            ? renderFailure(this, locale, failure, () => void accounts.first.run())
            : visible.length === 0 && !accounts.nextToken
              ? html`<p part="empty" aria-hidden="true">${locale.t('directory.empty')}</p>`
              : html`<ul part="list" class="list">
                ${visible.map((account) => html`<li part="item">${this.#renderAccount(account)}</li>`)}
              </ul>`
      }
      ${waiting || failure ? nothing : this.#renderFooter()}
      <!-- One live region from the first render on, so the outcome of loading is announced: how many
           businesses show, or that there are none (shown above for the eye). -->
      <p class="visually-hidden" role="status">${status}</p>
    </section>`;
  }

  #renderAccount(account: BusinessAccount): TemplateResult {
    const { address, websiteUrl } = account;
    const tel = telHref(account.phoneNumber);
    const street = address?.streetAddress;
    const locality = address ? [address.postalCode, address.city].filter(Boolean).join(' ') : '';
    return html`<article part="card" class="card" tabindex="-1">
      ${
        account.logoUrl
          ? html`<img part="logo" class="logo" src=${account.logoUrl} alt="" width="48" height="48" loading="lazy" decoding="async" referrerpolicy="no-referrer" />`
          : nothing
      }
      ${heading(headingLevel(this, this.headingLevel), 'name', account.name)}
      ${account.category ? html`<p part="category" class="category">${account.category}</p>` : nothing}
      ${account.description ? html`<p part="description" dir="auto">${account.description}</p>` : nothing}
      ${street || locality ? html`<address part="address">${street}${street && locality ? html`<br />` : nothing}${locality}</address>` : nothing}
      ${
        account.phoneNumber
          ? html`<p>
            <span class="visually-hidden">${this.locale.t('directory.phone')}: </span>${
              tel ? html`<a part="phone" href=${tel}>${account.phoneNumber}</a>` : account.phoneNumber
            }
          </p>`
          : nothing
      }
      ${
        websiteUrl
          ? html`<p>
            <span class="visually-hidden">${this.locale.t('directory.website')}: </span
            ><a part="website" href=${websiteUrl} target="_blank" rel="noopener noreferrer">${new URL(websiteUrl).host}</a>
          </p>`
          : nothing
      }
      ${
        account.customProperties.length
          ? html`<dl part="properties" class="properties">
            ${account.customProperties.map(({ key, value }) => html`<div><dt>${propertyLabel(key)}</dt><dd>${value}</dd></div>`)}
          </dl>`
          : nothing
      }
    </article>`;
  }

  async #showMore(): Promise<void> {
    const shown = this.#visible.length;
    const hadFocus = this.renderRoot.querySelector(':focus') !== null;
    this.#accounts.loadMore();
    await this.#accounts.more.taskComplete.catch(() => undefined);
    await this.updateComplete;
    // After the last page the button is gone: keep keyboard users at the first new business, or at
    // the last one when the last page brought none.
    if (hadFocus && !this.#accounts.nextToken) {
      const cards = this.renderRoot.querySelectorAll<HTMLElement>('[part~="card"]');
      (cards[shown] ?? cards[shown - 1])?.focus();
    }
  }

  #renderFooter(): TemplateResult {
    const { locale } = this;
    const accounts = this.#accounts;
    const moreFailure = failureOf(accounts.more);
    return html`<div class="footer">
        ${
          moreFailure
            ? renderFailure(this, locale, moreFailure, () => accounts.loadMore())
            : accounts.nextToken
              ? html`<button
                part="load-more-button"
                class="button secondary"
                type="button"
                aria-disabled=${accounts.loadingMore ? 'true' : 'false'}
                @click=${this.#showMore}
              >
                ${locale.t(accounts.loadingMore ? 'directory.loadingMore' : 'directory.more')}
              </button>`
              : nothing
        }
      </div>`;
  }
}
