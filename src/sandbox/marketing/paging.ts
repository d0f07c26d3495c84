/**
 * Opaque, tamper-evident pagination tokens: base64url JSON of an offset, then an HMAC over it and
 * the query it belongs to, keyed by a secret of this sandbox. A token edited by hand, taken from
 * another query or from another sandbox is refused with BAD_USER_INPUT instead of paging wrongly.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { GraphQLError } from 'graphql';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

export interface PageArgs {
  limit?: number | null;
  nextToken?: string | null;
}

export interface Page<T> {
  items: T[];
  nextToken: string | null;
}

export function badUserInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

export class PageTokens {
  constructor(private readonly secret: Buffer) {}

  encode(scope: string, offset: number): string {
    const payload = Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
    return `${payload}.${this.mac(scope, payload)}`;
  }

  /** The offset the token stands for; throws BAD_USER_INPUT for anything this sandbox did not issue for `scope`. */
  decode(scope: string, token: string): number {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined || !this.matches(scope, payload, mac)) {
      throw badUserInput(
        'nextToken is not valid for this query; pass back the nextToken of the previous page unchanged, with the same filter',
      );
    }
    const offset = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o?: unknown }).o;
    if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)
      throw badUserInput('nextToken is not valid');
    return offset;
  }

  /** Slices one page out of `all`; `scope` names the query and filter so tokens cannot cross queries. */
  page<T>(all: readonly T[], args: PageArgs, scope: string): Page<T> {
    const limit = args.limit ?? DEFAULT_LIMIT;
    if (limit < 1 || limit > MAX_LIMIT)
      throw badUserInput(`limit must be between 1 and ${MAX_LIMIT} (default ${DEFAULT_LIMIT}), got ${limit}`);
    const offset = args.nextToken == null ? 0 : this.decode(scope, args.nextToken);
    const end = offset + limit;
    return { items: all.slice(offset, end), nextToken: end < all.length ? this.encode(scope, end) : null };
  }

  private mac(scope: string, payload: string): string {
    return createHmac('sha256', this.secret).update(`${scope}\n${payload}`).digest('base64url');
  }

  private matches(scope: string, payload: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(scope, payload));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
