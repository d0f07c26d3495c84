/**
 * The typed view models the elements (and a page's own script) see. They are built from the
 * proxy's answers in responses.ts, the one place that knows the wire shape.
 */

/** One rendition of a campaign image. Every URL here has passed `safeUrl()`. */
export interface CampaignImage {
  width: number;
  url: string;
}

export type CampaignObjective =
  | {
      kind: 'coupon';
      /** As the API gives it (free text such as "4.99" or "10% off"), or null. */ price: string | null;
    }
  | {
      kind: 'other';
      /** The GraphQL type name, e.g. `VisitObjective`; empty when the campaign has none. */ typename: string;
    };

export interface Campaign {
  id: string;
  businessAccountId: string;
  title: string;
  subtitle: string;
  description: string;
  /** Renditions by ascending width; empty when the campaign has no (safe) image. */
  images: CampaignImage[];
  objective: CampaignObjective;
}

export interface Address {
  streetAddress: string;
  postalCode: string;
  city: string;
}

export interface BusinessAccount {
  id: string;
  name: string;
  description: string;
  category: string;
  /** As given, for display; build links with a sanitized copy. */
  phoneNumber: string;
  /** Only when safe (`https:`, or `http:` on localhost). */
  websiteUrl?: string;
  /** Only when safe. */
  logoUrl?: string;
  address: Address | null;
  pending: boolean;
  customProperties: { key: string; value: string }[];
}

export interface Coupon {
  code: string;
}

/** One page of a paginated list; `nextToken` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextToken: string | null;
}
