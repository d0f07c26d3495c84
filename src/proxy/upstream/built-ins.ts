/**
 * The built-in operations' answers: each upstream result is normalized (./normalize.ts), lists are
 * filled from sparse upstream pages (./pages.ts) behind the proxy's own cursors (./cursor.ts), and
 * the body the browser gets is always the shape src/proxy/README.md documents. Hosts' own operations
 * never come here: they are passed through unchanged.
 */
import { PageCursors, type PagePosition } from './cursor.ts';
import { normalizeBusinessAccount, normalizeCampaign, normalizeCoupon, normalizeSingleCampaign } from './normalize.ts';
import { canonicalVariables, type Variables } from './operations.ts';
import { fillPage, type PageFillLimits, type UpstreamPage } from './pages.ts';
import { UpstreamError } from './errors.ts';
import type { FieldAnswer } from './transport.ts';

/** Sends the operation upstream with these variables and returns its field's value. */
export type SendOperation = (variables: Variables) => Promise<FieldAnswer>;

/** A built-in answer and what the access log says about it (counts only, no data). */
export interface BuiltInAnswer {
  body: string;
  /** Records left out because the widgets cannot use them. */
  dropped: number;
  upstreamCalls: number;
  /** Upstream errors came with usable data, which was served. */
  partial: boolean;
}

/** Items per page when the browser gives no `limit`. */
export const DEFAULT_PAGE_SIZE = 10;

const PAGED_ITEMS: Readonly<Record<string, (value: unknown) => Record<string, unknown> | undefined>> = {
  campaigns: normalizeCampaign,
  businessAccounts: normalizeBusinessAccount,
};

function unexpected(field: string): UpstreamError {
  return new UpstreamError(
    502,
    'upstream_error',
    `The Marketing API answered "${field}" in an unexpected shape.`,
    true,
  );
}

function pageOf(field: string, value: unknown): UpstreamPage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unexpected(field);
  const { items, nextToken } = value as { items?: unknown; nextToken?: unknown };
  if (items !== undefined && items !== null && !Array.isArray(items)) throw unexpected(field);
  return { items: items ?? [], nextToken: typeof nextToken === 'string' && nextToken !== '' ? nextToken : null };
}

const body = (field: string, value: unknown) => JSON.stringify({ data: { [field]: value } });

export class BuiltInOperations {
  constructor(
    private readonly cursors: PageCursors,
    private readonly limits: PageFillLimits,
  ) {}

  /** A built-in query: `campaigns`, `businessAccounts` (filled pages) or `campaign`. */
  async query(field: string, variables: Variables, send: SendOperation, source = field): Promise<BuiltInAnswer> {
    const normalizeItem = PAGED_ITEMS[field];
    if (normalizeItem) return this.page(field, variables, send, normalizeItem, source);
    const { value, partial } = await send(variables);
    const campaign = normalizeSingleCampaign(value);
    return { body: body(field, campaign.value), dropped: campaign.dropped, upstreamCalls: 1, partial };
  }

  /**
   * Refuses a page cursor this proxy did not issue for this list (400 `invalid_cursor`), before the
   * request costs anything: no cache read, no rate-limit count, no upstream call.
   */
  async checkCursor(field: string, variables: Variables, source = field): Promise<void> {
    if (PAGED_ITEMS[field] && typeof variables.nextToken === 'string') await this.startOf(field, variables, source);
  }

  /** `requestCoupon`: the coupon, or an error that says a coupon may have been created without a code. */
  async mint(field: string, variables: Variables, send: SendOperation): Promise<BuiltInAnswer> {
    const { value, partial } = await send(variables);
    const coupon = normalizeCoupon(value);
    if (!coupon)
      throw new UpstreamError(502, 'upstream_error', 'The Marketing API answered without a coupon code.', true);
    return { body: body(field, coupon), dropped: 0, upstreamCalls: 1, partial };
  }

  /** Where a page starts: the list's first page, or the position the proxy's cursor names. */
  private async startOf(field: string, variables: Variables, source: string) {
    const { limit, nextToken, ...filter } = variables;
    // A cursor belongs to one list: this operation with these filter variables (any page size), read
    // through one upstream field (a scan's token means nothing to an index query, nor the other way round).
    const scope = `${field}\n${canonicalVariables(filter)}${source === field ? '' : `\n${source}`}`;
    const target = typeof limit === 'number' ? limit : DEFAULT_PAGE_SIZE;
    const start: PagePosition =
      typeof nextToken === 'string'
        ? await this.cursors.open(scope, nextToken)
        : { token: null, limit: target, skip: 0 };
    return { scope, filter, target, start };
  }

  private async page(
    field: string,
    variables: Variables,
    send: SendOperation,
    normalizeItem: (value: unknown) => Record<string, unknown> | undefined,
    source: string,
  ): Promise<BuiltInAnswer> {
    const { scope, filter, target, start } = await this.startOf(field, variables, source);
    const filled = await fillPage({
      target,
      start,
      limits: this.limits,
      usable: normalizeItem,
      readPage: async (token, pageLimit) => {
        const { value, partial } = await send({
          ...filter,
          limit: pageLimit,
          ...(token === null ? {} : { nextToken: token }),
        });
        return { page: pageOf(field, value), partial };
      },
    });
    const cursor = filled.next && (await this.cursors.seal(scope, filled.next));
    return {
      body: body(field, { items: filled.items, nextToken: cursor }),
      dropped: filled.dropped,
      upstreamCalls: filled.upstreamCalls,
      partial: filled.partial,
    };
  }
}
