/**
 * The appsync flavour's records: what an Amplify model table may hold. Unlike the default seed's
 * records, almost anything may be null, list elements included, and objectives may be of a type the
 * widgets do not know. `fail` is the test hook that makes a record's resolver fail.
 */

/** Makes a record's resolver fail the way AppSync reports a failed resolver (partial data). */
export interface ResolverFailure {
  /** AppSync's errorType, e.g. 'Lambda:Unhandled' or 'DynamoDB:DynamoDbException'. */
  errorType: string;
  /** The error's message; a generic one by default. */
  message?: string;
  /**
   * A field of the record's type (Campaign, CampaignContent or BusinessAccount, e.g. 'content',
   * 'featuredImage', 'logo', 'name'): only that field is null. Absent: the whole record fails, so its
   * list element (or the `campaign` root field) is null.
   */
  field?: string;
}

export type AppSyncObjectiveRecord =
  | { type: 'coupon'; price: number | null }
  | { type: 'visit'; visitsRequired: number | null; reward: string | null }
  /** A type the widgets do not know. */
  | { type: 'survey'; questionCount: number | null; surveyUrl: string | null };

export interface AppSyncCampaignContentRecord {
  title: string | null;
  subtitle: string | null;
  description: string | null;
  objective: AppSyncObjectiveRecord | null;
  /** Absent: a generated 16:9 image; null: no image; a string: that URL with `{width}` replaced. */
  featuredImageUrl?: string | null;
  colors?: [string, string];
}

export interface AppSyncCampaignRecord {
  id: string;
  businessAccountId: string;
  content: AppSyncCampaignContentRecord | null;
  /** ISO 8601; a fixed date by default. */
  createdAt?: string;
  updatedAt?: string;
  fail?: ResolverFailure;
}

export interface AppSyncBusinessAccountRecord {
  id: string;
  name: string | null;
  websiteUrl: string | null;
  address: { streetAddress: string | null; postalCode: string | null; city: string | null } | null;
  description: string | null;
  phoneNumber: string | null;
  category: string | null;
  /** Absent: a generated logo; null: no logo; a string: that URL as it is. */
  logoUrl?: string | null;
  pending: boolean | null;
  customProperties: Array<{ key: string | null; value: string | null } | null> | null;
  colors?: [string, string];
  createdAt?: string;
  updatedAt?: string;
  fail?: ResolverFailure;
}

export interface AppSyncSeed {
  businessAccounts: AppSyncBusinessAccountRecord[];
  campaigns: AppSyncCampaignRecord[];
}
