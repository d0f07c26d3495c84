/**
 * The display model of a first page: the fields its template (./first-page-template.ts) prints, read
 * from the proxy's answer through the browser client's own checks (./responses.ts), so a URL that is
 * not `https:` never reaches the markup and a wrong type is refused, as in the elements.
 */
import { parseBusinessAccountPage } from './business-accounts.ts';
import { dataOf, parseCampaign, parseCampaignPage } from './responses.ts';
import type { Campaign } from './types.ts';
import { propertyLabel } from '../shared/property-label.ts';
import { telHref } from '../shared/tel-href.ts';
import type { DisplayModel } from './first-page-markup.ts';

/** `sizes` of a campaign image, as the carousel gives its slides. */
export const IMAGE_SIZES = 'auto, (min-width: 30rem) 20rem, 85vw';

/** The elements' heading level unless `heading-level` says another from 1 to 6. */
export const DEFAULT_HEADING_LEVEL = 2;

/** The heading tag of a first page, from the element's `heading-level`. */
export function headingOf(written: string | undefined | null): string {
  const level = Number(written ?? DEFAULT_HEADING_LEVEL);
  return `h${Number.isInteger(level) && level >= 1 && level <= 6 ? level : DEFAULT_HEADING_LEVEL}`;
}

function campaignFields(campaign: Campaign, eager: boolean): DisplayModel {
  const { images, objective } = campaign;
  // The rendition the carousel falls back to where `srcset` is not read.
  const fallback = images.find((image) => image.width >= 640) ?? images.at(-1);
  return {
    title: campaign.title,
    subtitle: campaign.subtitle,
    description: campaign.description,
    price: objective.kind === 'coupon' ? (objective.price ?? '') : '',
    src: fallback?.url ?? '',
    srcset: images.map((image) => `${image.url} ${image.width}w`).join(', '),
    sizes: IMAGE_SIZES,
    // The first image is the one that paints with the page; the rest wait until they are near.
    loading: eager ? 'eager' : 'lazy',
  };
}

type Data = Record<string, unknown>;

/** A carousel's first page, from the data of the proxy's answer (`dataOf`). */
export const carouselModel = (data: Data, heading: string): DisplayModel => ({
  heading,
  items: parseCampaignPage(data).items.map((campaign, index) => campaignFields(campaign, index === 0)),
});

/** A coupon's first page, from the data of the proxy's answer (`dataOf`). */
export const couponModel = (data: Data, heading: string): DisplayModel => ({
  heading,
  ...campaignFields(parseCampaign(data), true),
});

/** A directory's first page, as the directory shows it: approved businesses, of the chosen category. */
function directoryModel(data: Data, heading: string, written: string | undefined): DisplayModel {
  const category = written?.trim().toLowerCase();
  const page = parseBusinessAccountPage(data);
  const shown = page.items.filter(
    (account) => !account.pending && (!category || account.category.toLowerCase() === category),
  );
  return {
    heading,
    // The element then shows its button for the next page.
    more: page.nextToken !== null,
    items: shown.map((account) => {
      const street = account.address?.streetAddress ?? '';
      const locality = account.address
        ? [account.address.postalCode, account.address.city].filter(Boolean).join(' ')
        : '';
      return {
        name: account.name,
        category: account.category,
        description: account.description,
        logo: account.logoUrl ?? '',
        address: street !== '' || locality !== '',
        street,
        locality,
        twoLines: street !== '' && locality !== '',
        phone: account.phoneNumber,
        tel: telHref(account.phoneNumber) ?? '',
        website: account.websiteUrl ?? '',
        host: account.websiteUrl ? new URL(account.websiteUrl).host : '',
        properties: account.customProperties.map(({ key, value }) => ({ label: propertyLabel(key), value })),
      };
    }),
  };
}

/**
 * What a widget's first page shows, from the proxy's answer (its body, parsed); `attribute` reads the
 * element's attributes. Throws a MarketingError for an answer the elements would refuse.
 */
export function displayModel(
  tag: string,
  body: unknown,
  attribute: (name: string) => string | undefined,
): DisplayModel {
  const data = dataOf(body);
  const heading = headingOf(attribute('heading-level'));
  switch (tag) {
    case 'campaign-carousel':
      return carouselModel(data, heading);
    case 'coupon-claim':
      return couponModel(data, heading);
    default:
      return directoryModel(data, heading, attribute('category'));
  }
}
