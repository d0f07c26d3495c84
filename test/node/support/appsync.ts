/** Helpers for the appsync-flavour sandbox tests: requests over real HTTP, answers in AppSync's shape. */
import { postGraphQL } from './graphql.ts';

export interface AppSyncError {
  path: Array<string | number> | null;
  data?: null;
  errorType?: string;
  errorInfo?: unknown;
  locations: Array<{ line: number; column: number; sourceName: null }> | null;
  message: string;
}

export interface AppSyncResponse<T> {
  status: number;
  headers: Headers;
  body: { data?: T | null; errors?: AppSyncError[] };
}

export async function postAppSync<T = Record<string, unknown>>(
  url: string,
  apiKey: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
): Promise<AppSyncResponse<T>> {
  return (await postGraphQL<T>(url, apiKey, query, variables)) as unknown as AppSyncResponse<T>;
}

export const CAMPAIGNS = /* GraphQL */ `
  query Campaigns($filter: ModelCampaignFilterInput, $limit: Int, $nextToken: String) {
    campaigns(filter: $filter, limit: $limit, nextToken: $nextToken) {
      items { id businessAccountId }
      nextToken
    }
  }`;

export type CampaignIdsPage = {
  campaigns: { items: Array<{ id: string; businessAccountId: string } | null>; nextToken: string | null } | null;
};
