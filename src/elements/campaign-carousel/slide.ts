import { html, nothing, type TemplateResult } from 'lit';
import type { Campaign } from '../../marketing/types.ts';
import type { LocaleController } from '../../shared/i18n.ts';
import { heading } from '../internal/heading.ts';

/** `sizes` for slide images: the laid-out width where supported (`auto`), else the default slide width. */
const IMAGE_SIZES = 'auto, (min-width: 30rem) 20rem, 85vw';

/** What every slide of one render shares. */
export interface SlideContext {
  locale: LocaleController;
  /** How many slides there are, for "3 of 6". */
  count: number;
  /** The level of the slides' title headings. */
  level: number;
  /** Whether coupon slides carry a `<coupon-claim>`, and what it is given. */
  claim: boolean;
  endpoint: string | undefined;
  currency: string | undefined;
  /** A coupon campaign's price as the shopper reads it. */
  price: (price: string | null) => string;
  /** Whether a slide is out of the tab order. */
  inert: (index: number) => boolean;
}

/** Placeholder slides shaped like real ones (image box, text, claim button), so little moves when they arrive. */
export function renderPlaceholders(count: number, claim: boolean): TemplateResult[] {
  return Array.from(
    { length: count },
    () => html`<div part="skeleton" class="slide placeholder" aria-hidden="true">
        <div class="media skeleton"></div>
        <div class="body ${claim ? 'with-claim' : ''}"><div class="skeleton line"></div><div class="skeleton line"></div></div>
      </div>`,
  );
}

/** The 16:9 image box: the image at the width it is shown, or an empty box. */
function renderMedia({ images }: Campaign): TemplateResult {
  const fallback = images.find((image) => image.width >= 640) ?? images.at(-1);
  return html`<div part="media" class="media">
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
  </div>`;
}

/** One campaign as a labelled group; its title is a button that chooses it. */
export function renderSlide(campaign: Campaign, index: number, slide: SlideContext): TemplateResult {
  const { locale, claim } = slide;
  const { objective } = campaign;
  const price = objective.kind === 'coupon' ? slide.price(objective.price) : '';
  return html`<div
      part="slide"
      class="slide"
      role="group"
      aria-roledescription=${locale.t('carousel.slide')}
      aria-label=${locale.t('carousel.position', { index: index + 1, count: slide.count })}
      ?inert=${slide.inert(index)}
      data-index=${index}
    >
      ${renderMedia(campaign)}
      <div class="body ${claim ? 'with-claim' : ''}">
        ${heading(
          slide.level,
          'title',
          html`<button part="title-button" class="title-button" type="button">${campaign.title}</button>`,
        )}
        ${campaign.subtitle ? html`<p part="subtitle" class="subtitle" dir="auto">${campaign.subtitle}</p>` : nothing}
        ${campaign.description ? html`<p part="description" class="description" dir="auto">${campaign.description}</p>` : nothing}
        ${price ? html`<p part="price" class="price">${price}</p>` : nothing}
        ${
          claim && objective.kind === 'coupon'
            ? html`<coupon-claim compact campaign-id=${campaign.id} .campaign=${campaign} endpoint=${slide.endpoint ?? nothing} currency=${slide.currency ?? nothing}></coupon-claim>`
            : nothing
        }
      </div>
    </div>`;
}
