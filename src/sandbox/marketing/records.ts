// The Marketing sandbox's record types: what the default seed, a test's own seed and the resolvers
// share. (A line comment, so that no type takes it for its own documentation.)
export interface AddressRecord {
  streetAddress: string;
  postalCode: string;
  city: string;
}

export interface KeyValueRecord {
  key: string;
  value: string;
}

export interface BusinessAccountRecord {
  id: string;
  name: string;
  websiteUrl: string | null;
  address: AddressRecord | null;
  description: string | null;
  phoneNumber: string | null;
  category: string | null;
  /** Absent: the sandbox serves a generated logo; null: no logo; a string: that URL as it is. */
  logoUrl?: string | null;
  pending: boolean;
  customProperties: KeyValueRecord[];
  /** Two colours for the generated logo. */
  colors?: [string, string];
}

export type ObjectiveRecord =
  { type: 'coupon'; price: string | null } | { type: 'visit'; visitsRequired: number; reward: string | null };

export interface CampaignRecord {
  id: string;
  businessAccountId: string;
  title: string;
  subtitle: string | null;
  description: string | null;
  objective: ObjectiveRecord | null;
  /**
   * Absent: the sandbox serves a generated 16:9 image at the requested width; null: no image;
   * a string: that URL as it is, with `{width}` replaced by the requested width.
   */
  featuredImageUrl?: string | null;
  /** Two colours for the generated image's gradient. */
  colors?: [string, string];
}

export interface MarketingSeed {
  businessAccounts: BusinessAccountRecord[];
  campaigns: CampaignRecord[];
}
