import { html, nothing, type PropertyValues, type PropertyDeclarations, type TemplateResult } from 'lit';
import { read } from '../../marketing/requests.ts';
import { parseCampaignPage } from '../../marketing/responses.ts';
import { CAROUSEL_PAGE_SIZE } from '../../shared/page-size.ts';
import type { Campaign } from '../../marketing/types.ts';
import { resolveEndpoint } from '../../shared/config.ts';
import { themeStyles } from '../../shared/theme.styles.ts';
import { warnOnce } from '../../shared/warn.ts';
import { currencyOf, formatPrice } from '../internal/price.ts';
import { renderFailure } from '../internal/status.ts';
import { headingLevel } from '../internal/heading.ts';
import { MarketingElement } from '../internal/marketing-element.ts';
import { statusStyles } from '../internal/status.styles.ts';
import { failureOf, PagedList, pageSize } from '../internal/tasks.ts';
import { campaignCarouselStyles } from './campaign-carousel.styles.ts';
import { carouselMessages } from './campaign-carousel.messages.ts';
import { listStatus, renderNotFoundYet, statusText } from './list-status.ts';
import { Rotation } from './rotation.ts';
import { renderPlaceholders, renderSlide } from './slide.ts';
import { SlideTrack } from './slide-track.ts';

export type { CampaignSelectDetail } from './events.ts';

/**
 * @summary The loyalty program's campaigns as an accessible, swipeable carousel, page by page.
 * @tag campaign-carousel
 *
 * @event {CustomEvent<CampaignSelectDetail>} campaign-select - The shopper chose a campaign: its title, a button (click, Enter or Space), or a click elsewhere on its slide. `detail: { campaign }`.
 *
 * @csspart base - The carousel region.
 * @csspart controls - The row of control buttons.
 * @csspart rotation-button - Stops or starts automatic rotation (only with `autoplay`).
 * @csspart previous-button - Shows the previous slide.
 * @csspart next-button - Shows the next slide.
 * @csspart slides - The scrolling track of slides.
 * @csspart slide - One campaign.
 * @csspart media - The 16:9 box of a campaign's image.
 * @csspart image - A campaign's image.
 * @csspart title - A campaign's title.
 * @csspart title-button - The button inside the title that chooses the campaign (`campaign-select`).
 * @csspart subtitle - A campaign's subtitle.
 * @csspart description - A campaign's description.
 * @csspart price - A coupon campaign's price.
 * @csspart empty - The message shown when there is no campaign, or none found yet while more remain to look through.
 * @csspart keep-looking-button - "Keep looking": reads further when nothing was found yet and the list goes on.
 * @csspart error - A failure message with its retry button.
 * @csspart retry-button - The retry button of a failure.
 * @csspart skeleton - A placeholder slide shown while loading.
 *
 * @cssproperty --loyalty-color-primary - Prices and buttons.
 * @cssproperty --loyalty-color-on-primary - Text on primary buttons.
 * @cssproperty --loyalty-color-surface - Slide and control background.
 * @cssproperty --loyalty-color-text - Text colour.
 * @cssproperty --loyalty-color-muted - Subtitles.
 * @cssproperty --loyalty-color-border - Slide borders, image placeholders and skeletons.
 * @cssproperty --loyalty-color-danger - Failure border.
 * @cssproperty --loyalty-radius - Corner radius.
 * @cssproperty --loyalty-spacing - Base spacing.
 * @cssproperty --loyalty-focus-color - The keyboard focus outline (default a deep blue, white in the dark scheme).
 * @cssproperty --loyalty-focus-halo - The ring around the focus outline (default white, near-black in the dark scheme); keep it at least 9:1 from --loyalty-focus-color.
 * @cssproperty --loyalty-carousel-slide-width - Width of one slide (default `min(85%, 20rem)`).
 * @cssproperty --loyalty-carousel-gap - Space between slides (default the base spacing).
 */
export class CampaignCarousel extends MarketingElement {
  static override styles = [themeStyles, statusStyles, campaignCarouselStyles];
  /** @internal */
  protected static override messages = carouselMessages;
  /** @internal The reactive properties, each documented at its field. */
  static override properties: PropertyDeclarations = {
    businessAccountId: { attribute: 'business-account-id' },
    limit: { type: Number },
    autoplay: {
      converter: (value: string | null) =>
        value === null ? 0 : value.trim() === '' ? 5 : Math.max(0, Number(value) || 0),
    },
    claim: { type: Boolean, reflect: true },
    currency: {},
    headingLevel: { attribute: 'heading-level', type: Number },
    label: {},
  };

  /** Shows only this business account's campaigns (all campaigns when absent). */
  declare businessAccountId?: string;

  /**
   * How many campaigns to load per page (1 to 50); the next page loads when the shopper reaches the end.
   * A page that comes back empty but with more to come is read past at once, up to 5 in a row (8 s);
   * past that, the carousel says none was found yet and offers "Keep looking".
   */
  limit = 6; // CAROUSEL_PAGE_SIZE, written out for the manifest

  /** Seconds between automatic slide changes; the bare attribute means 5, absent means off. */
  autoplay = 0;

  /** Puts a "Get coupon" control on coupon campaigns. */
  claim = false;

  /** ISO 4217 code used to format numeric prices, e.g. `EUR`. */
  declare currency?: string;

  /**
   * The level of the slides' title headings (1 to 6): one below the heading the carousel sits under.
   * Default 2, for a carousel under the page's `<h1>`.
   */
  headingLevel: number = 2;

  /** Accessible name of the carousel (default "Campaigns", localized); give each carousel of a page its own. */
  declare label?: string;

  readonly #campaigns = new PagedList(
    this,
    ([endpoint, businessAccountId, limit], nextToken, signal) =>
      read(endpoint, 'campaigns', { businessAccountId, limit, nextToken }, parseCampaignPage, signal),
    () =>
      [
        resolveEndpoint(this.endpoint),
        this.businessAccountId?.trim() || undefined,
        pageSize(this, this.limit, CAROUSEL_PAGE_SIZE),
      ] as const,
  );
  readonly #rotation = new Rotation(
    this,
    () => (this.#campaigns.items.length > 1 ? this.autoplay : 0),
    () => this.#advance(),
  );
  // The next page loads when the last slide comes into view, not before; after a failure only the
  // retry button tries again (no loop of automatic retries against a failing network).
  readonly #track = new SlideTrack(
    this,
    () => this.locale.rtl,
    () => !failureOf(this.#campaigns.more) && this.#campaigns.loadMore(),
  );

  override willUpdate(changed: PropertyValues<this>): void {
    const autoplay = this.getAttribute('autoplay')?.trim();
    if (changed.has('autoplay') && autoplay && !(Number(autoplay) >= 0)) {
      warnOnce(this, `autoplay="${autoplay}" is not a number of seconds; the slides do not rotate.`);
    }
    // <coupon-claim> is loaded only by carousels that show claims, so other pages never download it.
    if (changed.has('claim') && this.claim && !customElements.get('coupon-claim')) {
      import('../coupon-claim/index.ts').then(
        () => this.requestUpdate(),
        (error: unknown) => console.error('loyalty-widgets: <coupon-claim> could not be loaded.', error),
      );
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#track.disconnected();
  }

  protected override updated(): void {
    this.#track.rendered();
  }

  /**
   * The next button. At the end of the loaded slides while more may come, it loads them itself: the
   * last slide coming into view does that too, but only once, and a load can end with nothing to
   * show yet (a run of empty pages), so the button must never be a dead end.
   */
  async #next(): Promise<void> {
    const campaigns = this.#campaigns;
    const track = this.#track;
    if (track.atEnd && campaigns.nextToken) {
      const before = campaigns.items.length;
      campaigns.loadMore();
      await campaigns.more.taskComplete.catch(() => undefined);
      await this.updateComplete;
      if (campaigns.items.length === before) return;
    }
    track.goTo(track.current + 1, true);
  }

  #advance(): void {
    this.#track.goTo(this.#track.atEnd && !this.#campaigns.nextToken ? 0 : this.#track.current + 1);
  }

  #onClick(event: MouseEvent): void {
    const path = event.composedPath();
    // Controls inside a slide (the coupon claim) do their own thing.
    if (path.some((node) => node instanceof HTMLElement && node.localName === 'coupon-claim')) return;
    const slide = path.find(
      (node): node is HTMLElement => node instanceof HTMLElement && node.dataset.index !== undefined,
    );
    const campaign = slide && this.#campaigns.items[Number(slide.dataset.index)];
    if (campaign) this.emit('campaign-select', { campaign });
  }

  override render(): TemplateResult {
    const { locale } = this;
    const campaigns = this.#campaigns;
    const rotation = this.#rotation;
    // With `claim`, slides wait for <coupon-claim> too, so their claim row does not appear later.
    const status = listStatus(campaigns, this.claim && !customElements.get('coupon-claim'));
    const { waiting, failure, none, empty } = status;
    return html`<section
      part="base"
      class="base"
      aria-roledescription=${locale.t('carousel.roledescription')}
      aria-label=${this.label || locale.t('carousel.label')}
      aria-busy=${waiting ? 'true' : 'false'}
      @pointerenter=${() => rotation.hover(true)}
      @pointerleave=${() => rotation.hover(false)}
      @focusin=${rotation.onFocusin}
      @keydown=${this.#track.onTab}
    >
      ${
        waiting
          ? html`<div class="controls"></div>
            <div class="slides">${renderPlaceholders(3, this.claim)}</div>`
          : failure
            ? renderFailure(this, locale, failure, () => void campaigns.first.run())
            : empty
              ? html`<p part="empty" aria-hidden="true">${locale.t('carousel.empty')}</p>`
              : none
                ? renderNotFoundYet(this, locale, campaigns)
                : this.#renderCarousel(campaigns.items)
      }
      <!-- One live region from the first render on, so what it says next is announced: the empty
           state (shown above for the eye) or the slide that "previous" and "next" brought. -->
      <p class="visually-hidden" role="status">${statusText(status, campaigns, locale, this.#track.announcement)}</p>
    </section>`;
  }

  /** The controls and the track; the track is no Tab stop of its own (Firefox makes a scrolling box one). */
  #renderCarousel(items: readonly Campaign[]): TemplateResult {
    const { locale } = this;
    const campaigns = this.#campaigns;
    const rotation = this.#rotation;
    const track = this.#track;
    const moreFailure = failureOf(campaigns.more);
    const arrow = (glyph: string) => html`<span class="arrow" aria-hidden="true">${glyph}</span>`;
    const slide = {
      locale,
      count: items.length,
      level: headingLevel(this, this.headingLevel),
      claim: this.claim,
      endpoint: this.endpoint,
      currency: this.currency,
      price: (price: string | null) => formatPrice(price, locale.lang, currencyOf(this, this.currency)),
      inert: (index: number) => track.isInert(index),
    };
    return html`<div part="controls" class="controls">
        ${
          rotation.enabled
            ? html`<button part="rotation-button" class="icon-button" type="button" aria-label=${locale.t(rotation.playing ? 'carousel.stop' : 'carousel.start')}
              @pointerdown=${rotation.onPress} @pointercancel=${rotation.onPress} @click=${rotation.onClick}>
              <span aria-hidden="true">${rotation.playing ? '❚❚' : '▶'}</span>
            </button>`
            : nothing
        }
        <button part="previous-button" class="icon-button" type="button" aria-controls="slides" aria-label=${locale.t('carousel.previous')} ?disabled=${track.current === 0} @click=${() => track.goTo(track.current - 1, true)}>
          ${arrow('‹')}
        </button>
        <button part="next-button" class="icon-button" type="button" aria-controls="slides" aria-label=${locale.t('carousel.next')} ?disabled=${track.atEnd && !campaigns.nextToken} @click=${this.#next}>
          ${arrow('›')}
        </button>
      </div>
      <div
        id="slides"
        part="slides"
        class="slides"
        tabindex="-1"
        @scroll=${track.scheduleMeasure}
        @scrollend=${track.stopFollowing}
        @pointerdown=${track.stopFollowing}
        @wheel=${track.stopFollowing}
        @click=${this.#onClick}
        @keydown=${track.onKeydown}
        @focusin=${track.onFocusin}
      >
        ${items.map((campaign, index) => renderSlide(campaign, index, slide))}
        ${campaigns.loadingMore ? renderPlaceholders(1, this.claim) : nothing}
        ${moreFailure ? renderFailure(this, locale, moreFailure, () => campaigns.loadMore()) : nothing}
      </div>`;
  }
}
