import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { clientFor } from '../../marketing/client.ts';
import { CAROUSEL_PAGE_SIZE } from '../../shared/page-size.ts';
import type { Campaign } from '../../marketing/types.ts';
import { resolveEndpoint } from '../../shared/config.ts';
import { themeStyles } from '../../shared/theme.styles.ts';
import { warnOnce } from '../../shared/warn.ts';
import { currencyOf, formatPrice } from '../internal/price.ts';
import { renderFailure } from '../internal/status.ts';
import { heading, headingLevel } from '../internal/heading.ts';
import { MarketingElement } from '../internal/marketing-element.ts';
import { statusStyles } from '../internal/status.styles.ts';
import { failureOf, isWaiting, PagedList, pageSize } from '../internal/tasks.ts';
import { campaignCarouselStyles } from './campaign-carousel.styles.ts';
import { carouselMessages } from './campaign-carousel.messages.ts';
import { Rotation } from './rotation.ts';
import { fullyInView, nearestSlide, scrollToSlide, shownSlides } from './track.ts';

/** `sizes` for slide images: the laid-out width where supported (`auto`), else the default slide width. */
const IMAGE_SIZES = 'auto, (min-width: 30rem) 20rem, 85vw';

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

  /** Shows only this business account's campaigns (all campaigns when absent). */
  @property({ attribute: 'business-account-id' }) businessAccountId?: string;

  /**
   * How many campaigns to load per page (1 to 50); the next page loads when the shopper reaches the end.
   * A page that comes back empty but with more to come is read past at once, up to 5 in a row (8 s);
   * past that, the carousel says none was found yet and offers "Keep looking".
   */
  @property({ type: Number }) limit = 6; // CAROUSEL_PAGE_SIZE, written out for the manifest

  /** Seconds between automatic slide changes; the bare attribute means 5, absent means off. */
  @property({ converter: (value) => (value === null ? 0 : value.trim() === '' ? 5 : Math.max(0, Number(value) || 0)) })
  autoplay = 0;

  /** Puts a "Get coupon" control on coupon campaigns. */
  @property({ type: Boolean, reflect: true }) claim = false;

  /** ISO 4217 code used to format numeric prices, e.g. `EUR`. */
  @property() currency?: string;

  /**
   * The level of the slides' title headings (1 to 6): one below the heading the carousel sits under.
   * Default 2, for a carousel under the page's `<h1>`.
   */
  @property({ attribute: 'heading-level', type: Number }) headingLevel: number = 2;

  /** Accessible name of the carousel (default "Campaigns", localized); give each carousel of a page its own. */
  @property() label?: string;

  @state() private current = 0;
  @state() private atEnd = false;
  /**
   * The slides at least partly in the track's view. The others are `inert`: their controls are out
   * of the tab order, so Tab after "next" reaches the shown slide, not one scrolled out of sight.
   */
  @state() private firstShown = 0;
  @state() private lastShown = Number.POSITIVE_INFINITY;
  @state() private focusKept = -1;
  @state() private announcement = '';

  @query('.slides') private scroller?: HTMLElement | null;

  private readonly campaigns = new PagedList(
    this,
    ([endpoint, businessAccountId, limit], nextToken, signal) =>
      clientFor(endpoint).campaigns({ businessAccountId, limit, nextToken }, { signal }),
    () =>
      [
        resolveEndpoint(this.endpoint),
        this.businessAccountId?.trim() || undefined,
        pageSize(this, this.limit, CAROUSEL_PAGE_SIZE),
      ] as const,
  );
  private readonly rotation = new Rotation(
    this,
    () => (this.campaigns.items.length > 1 ? this.autoplay : 0),
    () => this.advance(),
  );
  /** A pointer is pressing the rotation button, whose click (not the focus the press gives it) decides. */
  private pressingRotation = false;
  /** Where a button's smooth scroll is taking the track, until it gets there or the shopper scrolls. */
  private destination?: number;
  private readonly stopFollowing = {
    handleEvent: (): void => {
      this.destination = undefined;
      this.scheduleMeasure();
    },
    passive: true,
  };
  private observer?: IntersectionObserver;
  private observedRoot?: Element;
  private observedSlide?: Element;
  private frame = 0;

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
    this.observer?.disconnect();
    this.observer = this.observedRoot = this.observedSlide = undefined;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private get slides(): HTMLElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('.slide[data-index]')];
  }

  /** The slide holding keyboard focus, if any. */
  private get focusedSlide(): number | undefined {
    const index = (this.renderRoot as ShadowRoot).activeElement?.closest<HTMLElement>('[data-index]')?.dataset.index;
    return index === undefined ? undefined : Number(index);
  }

  /** Reads which slide is at the start of the track, which are in view, and whether the last one is in full view. */
  private measure(): void {
    const { scroller, slides } = this;
    const last = slides.at(-1);
    if (!scroller || !last) return;
    // While a button's smooth scroll runs, the track is measured where it is headed, so the slides it
    // leaves are inert at once (Tab right after "next" goes to the new slide, not an old one).
    const pending = this.destination === undefined ? 0 : this.destination - scroller.scrollLeft;
    if (Math.abs(pending) < 1) this.destination = undefined;
    const box = scroller.getBoundingClientRect();
    const track = new DOMRect(box.x + pending, box.y, box.width, box.height);
    const rtl = this.locale.rtl;
    const focused = this.focusedSlide;
    // While a slide's title button has keyboard focus, that slide stays the current one, whatever the scroll says.
    if (!(this.renderRoot as ShadowRoot).activeElement?.matches('.title-button') || focused === undefined)
      this.current = nearestSlide(slides, track, rtl);
    const [first, lastShown] = shownSlides(slides, track);
    this.firstShown = Math.min(first, this.current);
    this.lastShown = Math.max(lastShown, this.current);
    // The slide holding focus is never made inert under it (a swipe while a button has focus).
    this.focusKept = focused ?? -1;
    this.atEnd = fullyInView(last, track, rtl);
  }

  private readonly scheduleMeasure = (): void => {
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
      this.measure();
    });
  };

  /** Brings slide `index` (clamped) to the start of the track and makes it the current one. */
  private goTo(index: number, announce = false): void {
    const { scroller, slides } = this;
    const slide = slides[Math.max(0, Math.min(index, slides.length - 1))];
    if (!scroller || !slide) return;
    this.destination = scrollToSlide(scroller, slide, this.locale.rtl);
    this.current = Number(slide.dataset.index);
    // Shown at once, so its controls can take focus while the track is still scrolling to it.
    this.firstShown = Math.min(this.firstShown, this.current);
    this.lastShown = Math.max(this.lastShown, this.current);
    if (announce)
      this.announcement = `${slide.getAttribute('aria-label')}: ${slide.querySelector('.title')?.textContent ?? ''}`;
  }

  /**
   * The next button. At the end of the loaded slides while more may come, it loads them itself: the
   * last slide coming into view does that too, but only once, and a load can end with nothing to
   * show yet (a run of empty pages), so the button must never be a dead end.
   */
  private async next(): Promise<void> {
    const { campaigns } = this;
    if (this.atEnd && campaigns.nextToken) {
      const before = campaigns.items.length;
      campaigns.loadMore();
      await campaigns.more.taskComplete.catch(() => undefined);
      await this.updateComplete;
      if (campaigns.items.length === before) return;
    }
    this.goTo(this.current + 1, true);
  }

  private advance(): void {
    this.goTo(this.atEnd && !this.campaigns.nextToken ? 0 : this.current + 1);
  }

  private select(campaign: Campaign | undefined): void {
    if (campaign) this.emit('campaign-select', { campaign });
  }

  private onClick(event: MouseEvent): void {
    const path = event.composedPath();
    // Controls inside a slide (the coupon claim) do their own thing.
    if (path.some((node) => node instanceof HTMLElement && node.localName === 'coupon-claim')) return;
    const slide = path.find(
      (node): node is HTMLElement => node instanceof HTMLElement && node.dataset.index !== undefined,
    );
    if (slide) this.select(this.campaigns.items[Number(slide.dataset.index)]);
  }

  /**
   * Focus entering the carousel stops rotation, except the focus that pressing the rotation button
   * gives it (Chromium and Firefox focus a button on mousedown, before its click): otherwise that
   * focus would stop rotation and the click would start it again at once.
   */
  private onFocusin(event: FocusEvent): void {
    const pressed = this.pressingRotation && (event.target as Element).matches('[part~="rotation-button"]');
    this.pressingRotation = false;
    if (!pressed) this.rotation.stop();
  }

  private onRotationClick(): void {
    this.pressingRotation = false;
    this.rotation.toggle();
  }

  /** Arrow keys, Home and End move between the slides' title buttons (each a real button that Enter and Space press). */
  private async onKeydown(event: KeyboardEvent): Promise<void> {
    const button = event.target as HTMLElement;
    const slide = button.closest<HTMLElement>('[data-index]');
    if (!button.matches('.title-button') || !slide) return;
    const index = Number(slide.dataset.index);
    const forward = this.locale.rtl ? 'ArrowLeft' : 'ArrowRight';
    const backward = this.locale.rtl ? 'ArrowRight' : 'ArrowLeft';
    const targets: Record<string, number> = {
      [forward]: index + 1,
      [backward]: index - 1,
      Home: 0,
      End: this.slides.length - 1,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = this.slides[Math.max(0, Math.min(target, this.slides.length - 1))];
    if (!next) return;
    this.goTo(Number(next.dataset.index));
    await this.updateComplete;
    next.querySelector<HTMLElement>('.title-button')?.focus({ preventScroll: true });
  }

  protected override updated(): void {
    const { scroller } = this;
    if (scroller && scroller !== this.observedRoot) {
      this.observer?.disconnect();
      this.observedRoot = scroller;
      this.observedSlide = undefined;
      // The next page loads when the last slide comes into view, not before; after a failure only
      // the retry button tries again (no loop of automatic retries against a failing network).
      this.observer = new IntersectionObserver(
        (entries) =>
          entries.some((entry) => entry.isIntersecting) && !failureOf(this.campaigns.more) && this.campaigns.loadMore(),
        { root: scroller, threshold: 0.5 },
      );
    }
    const last = this.slides.at(-1);
    if (this.observer && last && last !== this.observedSlide) {
      this.observer.disconnect();
      this.observer.observe(last);
      this.observedSlide = last;
    }
    this.scheduleMeasure();
  }

  override render(): TemplateResult {
    const { campaigns, locale } = this;
    // With `claim`, slides wait for <coupon-claim> too, so their claim row does not appear later.
    const waiting = isWaiting(campaigns.first) || (this.claim && !customElements.get('coupon-claim'));
    const failure = failureOf(campaigns.first);
    const none = !waiting && !failure && campaigns.items.length === 0;
    // "No campaigns" only once the list has ended; with a cursor left, more may be found further on.
    const empty = none && !campaigns.nextToken;
    const status = waiting
      ? campaigns.searching
        ? locale.t('carousel.searching')
        : ''
      : none
        ? locale.t(empty ? 'carousel.empty' : campaigns.loadingMore ? 'carousel.searching' : 'carousel.notFoundYet')
        : this.announcement;
    return html`<section
      part="base"
      class="base"
      aria-roledescription=${locale.t('carousel.roledescription')}
      aria-label=${this.label || locale.t('carousel.label')}
      aria-busy=${waiting ? 'true' : 'false'}
      @pointerenter=${() => this.rotation.hover(true)}
      @pointerleave=${() => this.rotation.hover(false)}
      @focusin=${this.onFocusin}
    >
      ${
        waiting
          ? html`<div class="controls"></div>
            <div class="slides">${this.renderPlaceholders(3)}</div>`
          : failure
            ? renderFailure(this, locale, failure, () => void campaigns.first.run())
            : empty
              ? html`<p part="empty" aria-hidden="true">${locale.t('carousel.empty')}</p>`
              : none
                ? this.renderNotFoundYet()
                : this.renderCarousel(campaigns.items)
      }
      <!-- One live region from the first render on, so what it says next is announced: the empty
           state (shown above for the eye) or the slide that "previous" and "next" brought. -->
      <p class="visually-hidden" role="status">${status}</p>
    </section>`;
  }

  /** Nothing found within the bound while the list goes on: say so, and offer the way on. */
  private renderNotFoundYet(): TemplateResult {
    const { campaigns, locale } = this;
    const moreFailure = failureOf(campaigns.more);
    if (moreFailure) return renderFailure(this, locale, moreFailure, () => campaigns.loadMore());
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

  /** The controls and the track; the track is no Tab stop of its own (Firefox makes a scrolling box one). */
  private renderCarousel(items: readonly Campaign[]): TemplateResult {
    const { campaigns, locale, rotation } = this;
    const moreFailure = failureOf(campaigns.more);
    const arrow = (glyph: string) => html`<span class="arrow" aria-hidden="true">${glyph}</span>`;
    return html`<div part="controls" class="controls">
        ${
          rotation.enabled
            ? html`<button part="rotation-button" class="icon-button" type="button" aria-label=${locale.t(rotation.playing ? 'carousel.stop' : 'carousel.start')}
              @pointerdown=${(event: PointerEvent) => (this.pressingRotation = event.button === 0)}
              @pointercancel=${() => (this.pressingRotation = false)}
              @click=${this.onRotationClick}>
              <span aria-hidden="true">${rotation.playing ? '❚❚' : '▶'}</span>
            </button>`
            : nothing
        }
        <button part="previous-button" class="icon-button" type="button" aria-controls="slides" aria-label=${locale.t('carousel.previous')} ?disabled=${this.current === 0} @click=${() => this.goTo(this.current - 1, true)}>
          ${arrow('‹')}
        </button>
        <button part="next-button" class="icon-button" type="button" aria-controls="slides" aria-label=${locale.t('carousel.next')} ?disabled=${this.atEnd && !campaigns.nextToken} @click=${this.next}>
          ${arrow('›')}
        </button>
      </div>
      <div
        id="slides"
        part="slides"
        class="slides"
        tabindex="-1"
        @scroll=${this.scheduleMeasure}
        @scrollend=${this.stopFollowing}
        @pointerdown=${this.stopFollowing}
        @wheel=${this.stopFollowing}
        @click=${this.onClick}
        @keydown=${this.onKeydown}
      >
        ${items.map((campaign, index) => this.renderSlide(campaign, index, items.length))}
        ${campaigns.loadingMore ? this.renderPlaceholders(1) : nothing}
        ${moreFailure ? renderFailure(this, locale, moreFailure, () => campaigns.loadMore()) : nothing}
      </div>`;
  }

  /** Placeholder slides shaped like real ones (image box, text, claim button), so little moves when they arrive. */
  private renderPlaceholders(count: number): TemplateResult[] {
    return Array.from(
      { length: count },
      () => html`<div part="skeleton" class="slide placeholder" aria-hidden="true">
        <div class="media skeleton"></div>
        <div class="body ${this.claim ? 'with-claim' : ''}"><div class="skeleton line"></div><div class="skeleton line"></div></div>
      </div>`,
    );
  }

  private renderSlide(campaign: Campaign, index: number, count: number): TemplateResult {
    const { images, objective } = campaign;
    const price =
      objective.kind === 'coupon'
        ? formatPrice(objective.price, this.locale.lang, currencyOf(this, this.currency))
        : '';
    const fallback = images.find((image) => image.width >= 640) ?? images.at(-1);
    return html`<div
      part="slide"
      class="slide"
      role="group"
      aria-roledescription=${this.locale.t('carousel.slide')}
      aria-label=${this.locale.t('carousel.position', { index: index + 1, count })}
      ?inert=${(index < this.firstShown || index > this.lastShown) && index !== this.focusKept}
      data-index=${index}
    >
      <div part="media" class="media">
        ${
          fallback
            ? html`<img
              part="image"
              src=${fallback.url}
              srcset=${images.map((image) => `${image.url} ${image.width}w`).join(', ')}
              sizes=${IMAGE_SIZES}
              width="1600"
              height="900"
              alt=""
              loading="lazy"
              decoding="async"
            />`
            : nothing
        }
      </div>
      <div class="body ${this.claim ? 'with-claim' : ''}">
        ${heading(
          headingLevel(this, this.headingLevel),
          'title',
          'title',
          html`<button part="title-button" class="title-button" type="button">${campaign.title}</button>`,
        )}
        ${campaign.subtitle ? html`<p part="subtitle" class="subtitle" dir="auto">${campaign.subtitle}</p>` : nothing}
        ${campaign.description ? html`<p part="description" class="description" dir="auto">${campaign.description}</p>` : nothing}
        ${price ? html`<p part="price" class="price">${price}</p>` : nothing}
        ${
          this.claim && objective.kind === 'coupon'
            ? html`<coupon-claim compact campaign-id=${campaign.id} .campaign=${campaign} endpoint=${this.endpoint ?? nothing} currency=${this.currency ?? nothing}></coupon-claim>`
            : nothing
        }
      </div>
    </div>`;
  }
}
