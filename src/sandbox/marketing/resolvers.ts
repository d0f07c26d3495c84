/**
 * The Marketing sandbox's state (seeded records, coupons issued, request counters) and the GraphQL
 * resolvers over it. Errors carry `extensions.code`: BAD_USER_INPUT, NOT_FOUND, NO_COUPON_OBJECTIVE.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { GraphQLError, type OperationDefinitionNode } from 'graphql';
import { badUserInput, PageTokens, type PageArgs } from './paging.ts';
import { MAX_IMAGE_WIDTH } from './images.ts';
import { buildMarketingSchema } from './schema.ts';
import type { BusinessAccountRecord, CampaignRecord, MarketingSeed } from './records.ts';

export interface SandboxStats {
  couponsMinted: number;
  graphqlRequests: number;
  /** Requests per root field (campaigns, campaign, businessAccounts, requestCoupon). */
  byOperation: Record<string, number>;
  /** Rows the lists read, before any filter (the appsync flavour's scans and index queries; 0 otherwise). */
  rowsRead: number;
}

export interface MarketingContext {
  state: MarketingState;
}

interface Filter<T> {
  eq?: T | null;
}

// No 0/O/1/I, so a code read aloud or typed from a receipt is unambiguous.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * What every flavour of the Marketing sandbox keeps besides its records: request counters, the
 * coupon codes issued, throttling owed, and the origin image URLs are built on.
 */
export class MarketingServer {
  private readonly issuedCodes = new Set<string>();
  private counters: SandboxStats = { couponsMinted: 0, graphqlRequests: 0, byOperation: {}, rowsRead: 0 };
  private throttleOwed = 0;

  constructor(
    /** Origin the sandbox's own image URLs are built on, e.g. http://localhost:4002. */
    public origin: string,
  ) {}

  stats(): SandboxStats {
    return structuredClone(this.counters);
  }

  resetStats(): void {
    this.counters = { couponsMinted: 0, graphqlRequests: 0, byOperation: {}, rowsRead: 0 };
  }

  /** Every authenticated request counts, valid or not: it reached the GraphQL server. */
  countRequest(): void {
    this.counters.graphqlRequests += 1;
  }

  /** Counts rows a list read, before its filter. */
  countRows(rows: number): void {
    this.counters.rowsRead += rows;
  }

  /** Counts each root field the operation asks for (`campaigns`, `requestCoupon`, …). */
  countOperation(operation: OperationDefinitionNode): void {
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== 'Field') continue;
      const field = selection.name.value;
      this.counters.byOperation[field] = (this.counters.byOperation[field] ?? 0) + 1;
    }
  }

  /** The next `count` authenticated requests are refused with 429 (a test hook). */
  throttleNext(count: number): void {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new Error(`throttleNext takes a whole number of requests, got ${count}`);
    this.throttleOwed = count;
  }

  /** True when this request is to be refused as throttled; uses up one of the requests owed. */
  takeThrottle(): boolean {
    if (this.throttleOwed === 0) return false;
    this.throttleOwed -= 1;
    return true;
  }

  mintCouponCode(): string {
    let code: string;
    do {
      const chars = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
      code = `SAVE-${chars.slice(0, 4)}-${chars.slice(4)}`;
    } while (this.issuedCodes.has(code));
    this.issuedCodes.add(code);
    this.counters.couponsMinted += 1;
    return code;
  }

  imageUrl(id: string, width: number): string {
    return `${this.origin}/images/${encodeURIComponent(id)}.svg?w=${width}`;
  }
}

export class MarketingState extends MarketingServer {
  readonly campaigns: CampaignRecord[];
  readonly businessAccounts: BusinessAccountRecord[];
  readonly tokens = new PageTokens(randomBytes(32));

  constructor(seed: MarketingSeed, origin: string) {
    super(origin);
    this.campaigns = seed.campaigns;
    this.businessAccounts = seed.businessAccounts;
  }
}

function matches<T>(value: T, filter: Filter<T> | null | undefined): boolean {
  return filter?.eq == null || filter.eq === value;
}

function checkWidth(width: number): void {
  if (width < 1 || width > MAX_IMAGE_WIDTH)
    throw badUserInput(`width must be between 1 and ${MAX_IMAGE_WIDTH}, got ${width}`);
}

type CampaignsArgs = PageArgs & { filter?: { businessAccountId?: Filter<string> | null } | null };
type BusinessAccountsArgs = PageArgs & {
  filter?: { category?: Filter<string> | null; pending?: Filter<boolean> | null } | null;
};

export function createMarketingSchema() {
  return buildMarketingSchema<MarketingContext>({
    Query: {
      campaigns: (_root, args: CampaignsArgs, { state }: MarketingContext) => {
        const businessAccountId = args.filter?.businessAccountId;
        const selected = state.campaigns.filter((campaign) => matches(campaign.businessAccountId, businessAccountId));
        return state.tokens.page(selected, args, `campaigns:${JSON.stringify(businessAccountId?.eq ?? null)}`);
      },
      campaign: (_root, args: { id: string }, { state }: MarketingContext) =>
        state.campaigns.find((campaign) => campaign.id === args.id) ?? null,
      businessAccounts: (_root, args: BusinessAccountsArgs, { state }: MarketingContext) => {
        const { category, pending } = args.filter ?? {};
        const selected = state.businessAccounts.filter(
          (account) => matches(account.category, category) && matches(account.pending, pending),
        );
        return state.tokens.page(
          selected,
          args,
          `businessAccounts:${JSON.stringify([category?.eq ?? null, pending?.eq ?? null])}`,
        );
      },
    },
    Mutation: {
      requestCoupon: (_root, args: { campaignId: string }, { state }: MarketingContext) =>
        requestCoupon(state, args.campaignId),
    },
    // A campaign record also serves as its own content object.
    Campaign: { content: (campaign: CampaignRecord) => campaign },
    CampaignContent: {
      featuredImage: (campaign: CampaignRecord, args: { width: number }, { state }: MarketingContext) =>
        featuredImage(state, campaign, args.width),
      objective: (campaign: CampaignRecord) => {
        const objective = campaign.objective;
        if (!objective) return null;
        return objective.type === 'coupon'
          ? { __typename: 'CouponObjective', price: objective.price }
          : { __typename: 'VisitObjective', visitsRequired: objective.visitsRequired, reward: objective.reward };
      },
    },
    BusinessAccount: {
      logo: (account: BusinessAccountRecord, _args: unknown, { state }: MarketingContext) => {
        if (account.logoUrl === null) return null;
        return { url: account.logoUrl ?? state.imageUrl(account.id, 256) };
      },
    },
  });
}

/** Mints a coupon of a campaign that has a coupon objective; the errors a real upstream gives otherwise. */
function requestCoupon(state: MarketingState, campaignId: string) {
  const campaign = state.campaigns.find((candidate) => candidate.id === campaignId);
  if (!campaign) {
    throw new GraphQLError(`No campaign has the id ${JSON.stringify(campaignId)}`, {
      extensions: { code: 'NOT_FOUND' },
    });
  }
  if (campaign.objective?.type !== 'coupon') {
    throw new GraphQLError(`Campaign ${JSON.stringify(campaign.id)} has no coupon objective, so it issues no coupons`, {
      extensions: { code: 'NO_COUPON_OBJECTIVE' },
    });
  }
  return { coupon: { code: state.mintCouponCode() } };
}

/** The campaign's image at the width asked: its own URL, none, or the one the sandbox generates. */
function featuredImage(state: MarketingState, campaign: CampaignRecord, width: number) {
  checkWidth(width);
  if (campaign.featuredImageUrl === null) return null;
  if (campaign.featuredImageUrl !== undefined)
    return { url: campaign.featuredImageUrl.replaceAll('{width}', String(width)) };
  return { url: state.imageUrl(campaign.id, width) };
}
