/**
 * The appsync flavour's state and resolvers, behaving like Amplify-generated ones over DynamoDB:
 * lists are scans where `limit` counts the rows read BEFORE the filter, so a filtered page may hold
 * fewer items than asked, or none, and still carry a nextToken; a token comes whenever the scan
 * stopped at the limit, so the last page can be empty. Failures are AppSync errors with an errorType.
 */
import { randomUUID } from 'node:crypto';
import type { GraphQLFieldResolver } from 'graphql';
import { MAX_IMAGE_WIDTH } from '../images.ts';
import { MarketingServer } from '../resolvers.ts';
import { AppSyncResolverError } from './errors.ts';
import { matchesFilter, type ModelFilter } from './filter.ts';
import type {
  AppSyncBusinessAccountRecord,
  AppSyncCampaignContentRecord,
  AppSyncCampaignRecord,
  AppSyncSeed,
  ResolverFailure,
} from './records.ts';
import { buildAppSyncSchema, CAMPAIGN_INDEX_FIELD } from './schema.ts';
import { AppSyncPageTokens } from './tokens.ts';

/** Amplify's generated list resolvers read 100 rows when no limit is given. */
export const APPSYNC_DEFAULT_LIMIT = 100;
/** Larger limits read at most this many rows (DynamoDB stops a scan page at 1 MB anyway). */
export const APPSYNC_MAX_LIMIT = 1000;
const RECORD_DATE = '2025-03-01T09:00:00.000Z';

export class AppSyncState extends MarketingServer {
  readonly campaigns: AppSyncCampaignRecord[];
  readonly businessAccounts: AppSyncBusinessAccountRecord[];
  readonly tokens = new AppSyncPageTokens();

  constructor(seed: AppSyncSeed, origin: string) {
    super(origin);
    this.campaigns = seed.campaigns;
    this.businessAccounts = seed.businessAccounts;
  }
}

interface Context {
  state: AppSyncState;
}

interface PageArgs {
  limit?: number | null;
  nextToken?: string | null;
}

/** What CampaignContent's resolvers see: the content and the campaign it belongs to. */
interface ContentParent {
  campaign: AppSyncCampaignRecord;
  content: AppSyncCampaignContentRecord;
}

function failureError(failure: ResolverFailure, id: string): AppSyncResolverError {
  return new AppSyncResolverError(
    failure.errorType,
    failure.message ?? `Resolver failed for ${id} (${failure.errorType})`,
  );
}

function dynamoDbRequestId(): string {
  return randomUUID().replaceAll('-', '').toUpperCase().slice(0, 26);
}

/** One scanned page: `limit` rows read from the token's position, then filtered. */
function scan<T extends { id: string; fail?: ResolverFailure }>(
  state: AppSyncState,
  rows: readonly T[],
  args: PageArgs,
  scope: string,
  keep: (row: T) => boolean = () => true,
): { items: Array<T | Error>; nextToken: string | null } {
  const asked = args.limit ?? APPSYNC_DEFAULT_LIMIT;
  if (asked < 1) {
    throw new AppSyncResolverError(
      'DynamoDB:DynamoDbException',
      `1 validation error detected: Value '${asked}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1 (Service: DynamoDb, Status Code: 400, Request ID: ${dynamoDbRequestId()})`,
    );
  }
  const limit = Math.min(asked, APPSYNC_MAX_LIMIT);
  const offset = args.nextToken == null ? 0 : state.tokens.decode(scope, args.nextToken);
  if (offset === undefined) {
    throw new AppSyncResolverError(
      'DynamoDB:UserIllegalArgumentException',
      'com.amazonaws.deepdish.common.pagination.InvalidPaginationTokenException: Invalid pagination token given.',
    );
  }
  const read = rows.slice(offset, offset + limit);
  state.countRows(read.length);
  // A whole-record failure nulls its list element (graphql-js turns a returned Error into null + error).
  const items = read.filter(keep).map((row) => (row.fail && !row.fail.field ? failureError(row.fail, row.id) : row));
  return { items, nextToken: read.length === limit ? state.tokens.encode(scope, offset + limit) : null };
}

function objectiveOf({ content }: ContentParent) {
  const objective = content.objective;
  if (!objective) return null;
  switch (objective.type) {
    case 'coupon':
      return { __typename: 'CouponObjective', price: objective.price };
    case 'visit':
      return { __typename: 'VisitObjective', visitsRequired: objective.visitsRequired, reward: objective.reward };
    case 'survey':
      return { __typename: 'SurveyObjective', questionCount: objective.questionCount, surveyUrl: objective.surveyUrl };
  }
}

function failureOf(parent: unknown): { failure: ResolverFailure; id: string } | undefined {
  const record =
    (parent as Partial<ContentParent> | undefined)?.campaign ??
    (parent as { id?: string; fail?: ResolverFailure } | undefined);
  return record?.fail && record.id ? { failure: record.fail, id: record.id } : undefined;
}

/** A resolver wrapped so the field named by a record's `fail.field` fails, and only that field. */
function failingField(resolve: GraphQLFieldResolver<unknown, Context>): GraphQLFieldResolver<unknown, Context> {
  return (parent, args, context, info) => {
    const failing = failureOf(parent);
    if (failing?.failure.field === info.fieldName) throw failureError(failing.failure, failing.id);
    return resolve(parent, args, context, info);
  };
}

const content = (field: keyof AppSyncCampaignContentRecord) => (parent: ContentParent) => parent.content[field] ?? null;

const campaignFilter = (filter: ModelFilter | null | undefined) => (campaign: AppSyncCampaignRecord) =>
  matchesFilter(
    { ...campaign, createdAt: campaign.createdAt ?? RECORD_DATE, updatedAt: campaign.updatedAt ?? RECORD_DATE },
    filter,
  );

type IndexArgs = PageArgs & { businessAccountId: string; filter?: ModelFilter | null };

/** The business account index's query: a scan of that account's campaigns only. */
function campaignsOfAccount(state: AppSyncState, args: IndexArgs) {
  return scan(
    state,
    state.campaigns.filter((campaign) => campaign.businessAccountId === args.businessAccountId),
    args,
    `${CAMPAIGN_INDEX_FIELD}:${args.businessAccountId}`,
    campaignFilter(args.filter),
  );
}

/** A Lambda resolver: what it throws arrives as Lambda:Unhandled with its message. */
function requestCoupon(state: AppSyncState, campaignId: string) {
  const campaign = state.campaigns.find((candidate) => candidate.id === campaignId);
  if (!campaign) throw new AppSyncResolverError('Lambda:Unhandled', `Campaign not found: ${campaignId}`);
  if (campaign.fail && !campaign.fail.field) throw failureError(campaign.fail, campaign.id);
  if (campaign.content?.objective?.type !== 'coupon') {
    throw new AppSyncResolverError('Lambda:Unhandled', `Campaign ${campaign.id} has no coupon objective`);
  }
  return { coupon: { code: state.mintCouponCode() } };
}

/** The campaign's image at the width asked: its own URL, none, or the one the sandbox generates. */
function featuredImage(state: AppSyncState, { campaign, content: record }: ContentParent, width: number) {
  if (width < 1 || width > MAX_IMAGE_WIDTH) {
    throw new AppSyncResolverError('Lambda:Unhandled', `width must be between 1 and ${MAX_IMAGE_WIDTH}, got ${width}`);
  }
  if (record.featuredImageUrl === null) return null;
  if (record.featuredImageUrl !== undefined)
    return { url: record.featuredImageUrl.replaceAll('{width}', String(width)) };
  return { url: state.imageUrl(campaign.id, width) };
}

/** The schema with its resolvers; `campaignIndex` adds the business account index's query field. */
export function createAppSyncSchema(campaignIndex = false) {
  return buildAppSyncSchema<Context>(
    {
      Query: {
        campaigns: (_root, args: PageArgs & { filter?: ModelFilter | null }, { state }: Context) =>
          scan(state, state.campaigns, args, 'campaigns', campaignFilter(args.filter)),
        // The index's Query: `limit` counts only this account's rows, so a page is full unless the list ends.
        [CAMPAIGN_INDEX_FIELD]: (_root, args: IndexArgs, { state }: Context) => campaignsOfAccount(state, args),
        campaign: (_root, args: { id: string }, { state }: Context) => {
          const campaign = state.campaigns.find((candidate) => candidate.id === args.id);
          if (campaign?.fail && !campaign.fail.field) throw failureError(campaign.fail, campaign.id);
          return campaign ?? null;
        },
        businessAccounts: (_root, args: PageArgs, { state }: Context) =>
          scan(state, state.businessAccounts, args, 'businessAccounts'),
      },
      Mutation: {
        // A Lambda resolver: what it throws arrives as Lambda:Unhandled with its message.
        requestCoupon: (_root, args: { campaignId: string }, { state }: Context) =>
          requestCoupon(state, args.campaignId),
      },
      Campaign: {
        content: (campaign: AppSyncCampaignRecord): ContentParent | null =>
          campaign.content ? { campaign, content: campaign.content } : null,
        createdAt: (campaign: AppSyncCampaignRecord) => campaign.createdAt ?? RECORD_DATE,
        updatedAt: (campaign: AppSyncCampaignRecord) => campaign.updatedAt ?? campaign.createdAt ?? RECORD_DATE,
      },
      CampaignContent: {
        title: content('title'),
        subtitle: content('subtitle'),
        description: content('description'),
        featuredImage: (parent: ContentParent, args: { width: number }, { state }: Context) =>
          featuredImage(state, parent, args.width),
        objective: objectiveOf,
      },
      BusinessAccount: {
        logo: (account: AppSyncBusinessAccountRecord, _args: unknown, { state }: Context) => {
          if (account.logoUrl === null) return null;
          return { url: account.logoUrl ?? state.imageUrl(account.id, 256) };
        },
        createdAt: (account: AppSyncBusinessAccountRecord) => account.createdAt ?? RECORD_DATE,
        updatedAt: (account: AppSyncBusinessAccountRecord) => account.updatedAt ?? account.createdAt ?? RECORD_DATE,
      },
    },
    (typeName, resolve) =>
      ['Campaign', 'CampaignContent', 'BusinessAccount'].includes(typeName) ? failingField(resolve) : resolve,
    campaignIndex,
  );
}
