/**
 * The persisted operations: the only GraphQL documents the proxy sends upstream. The browser names an
 * operation and passes variables; it never sends a document. Image widths are fixed here as aliases
 * (`img320` … `img1280`) so a page cannot ask the upstream to render arbitrary sizes.
 *
 * Response body of every operation: `{ "data": <the upstream GraphQL data, unchanged> }`, e.g.
 * `{ "data": { "campaigns": { "items": [...], "nextToken": "…" | null } } }`.
 */
import { ProxyError } from '../shared/errors.ts';

/** Widths (px) at which campaign images are requested; the browser client picks among them. */
export const IMAGE_WIDTHS = [320, 640, 960, 1280] as const;

export const MAX_STRING_LENGTH = 256;
/** Pagination tokens are opaque and, from AppSync-style services, often well over a kilobyte. */
export const MAX_NEXT_TOKEN_LENGTH = 8192;
export const MAX_LIMIT = 50;

const LONE_SURROGATE = /\p{Surrogate}/u;

export type VariableRule =
  | { type: 'string'; required?: boolean; maxLength?: number }
  | { type: 'int'; required?: boolean; min: number; max: number }
  | { type: 'boolean'; required?: boolean };

export type Variables = Record<string, string | number | boolean>;

export interface PersistedOperation {
  kind: 'query' | 'mutation';
  /** Every variable the operation accepts; any other name is refused. */
  variables: Record<string, VariableRule>;
  /** The GraphQL document, or a choice of documents by the (validated) variables. */
  document: string | ((variables: Variables) => string);
}

/** A browser's call, read and checked: the named operation and its variables. */
export interface OperationCall {
  name: string;
  operation: PersistedOperation;
  variables: Variables;
}

const imageFields = IMAGE_WIDTHS.map((width) => `img${width}: featuredImage(width: ${width}) { url }`).join(' ');

const CAMPAIGN_FIELDS = `id businessAccountId content { title subtitle description ${imageFields} objective { __typename ... on CouponObjective { price } } }`;

const BUSINESS_ACCOUNT_FIELDS =
  'id name websiteUrl address { streetAddress postalCode city } description phoneNumber category logo { url } pending customProperties { key value }';

const limit: VariableRule = { type: 'int', min: 1, max: MAX_LIMIT };
const optionalString: VariableRule = { type: 'string' };
const requiredString: VariableRule = { type: 'string', required: true };
const nextToken: VariableRule = { type: 'string', maxLength: MAX_NEXT_TOKEN_LENGTH };

// Filters are written inline with scalar variables, so the documents depend only on the spec's
// argument shapes and not on upstream input type names (which the spec does not show).
// The optional filter variable has the name of the filter field it sets (`{ <name>: { eq } }`).
function pageQuery(field: string, itemFields: string, filterName: string) {
  return (variables: Variables) => {
    const filtered = variables[filterName] !== undefined;
    const declared = filtered ? `$${filterName}: String!, ` : '';
    const argument = filtered ? `filter: { ${filterName}: { eq: $${filterName} } }, ` : '';
    return `query ${field}(${declared}$limit: Int, $nextToken: String) { ${field}(${argument}limit: $limit, nextToken: $nextToken) { items { ${itemFields} } nextToken } }`;
  };
}

export const BUILT_IN_OPERATIONS: Readonly<Record<string, PersistedOperation>> = {
  campaigns: {
    kind: 'query',
    variables: { businessAccountId: optionalString, limit, nextToken },
    document: pageQuery('campaigns', CAMPAIGN_FIELDS, 'businessAccountId'),
  },
  campaign: {
    kind: 'query',
    variables: { id: requiredString },
    document: `query campaign($id: ID!) { campaign(id: $id) { ${CAMPAIGN_FIELDS} } }`,
  },
  businessAccounts: {
    kind: 'query',
    variables: { limit, nextToken, category: optionalString },
    document: pageQuery('businessAccounts', BUSINESS_ACCOUNT_FIELDS, 'category'),
  },
  requestCoupon: {
    kind: 'mutation',
    variables: { campaignId: requiredString },
    document: 'mutation requestCoupon($campaignId: ID!) { requestCoupon(campaignId: $campaignId) { coupon { code } } }',
  },
};

function invalid(message: string): never {
  throw new ProxyError(400, 'invalid_variables', message);
}

/**
 * Checks the variables a browser sent against the operation's rules and returns them with `null`
 * values dropped (null means "not given"). Refuses unknown names, wrong types, out-of-range numbers
 * and over-long strings.
 */
export function validateVariables(operation: PersistedOperation, input: unknown): Variables {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) invalid('"variables" must be a JSON object.');
  const given = input as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(operation.variables, name)) invalid(`Unknown variable "${name.slice(0, 64)}".`);
  }
  const result: Variables = {};
  for (const [name, rule] of Object.entries(operation.variables)) {
    const value = given[name];
    if (value === undefined || value === null) {
      if (rule.required) invalid(`Variable "${name}" is required.`);
      continue;
    }
    switch (rule.type) {
      case 'string': {
        if (typeof value !== 'string') invalid(`Variable "${name}" must be a string.`);
        const maxLength = rule.maxLength ?? MAX_STRING_LENGTH;
        if (value.length === 0 || value.length > maxLength) {
          invalid(`Variable "${name}" must be 1 to ${maxLength} characters long.`);
        }
        // A lone surrogate (JSON allows "\ud800") is no text: no upstream could match it, and GraphQL cannot write it.
        if (LONE_SURROGATE.test(value)) invalid(`Variable "${name}" must be valid Unicode text.`);
        break;
      }
      case 'int':
        if (typeof value !== 'number' || !Number.isInteger(value)) invalid(`Variable "${name}" must be an integer.`);
        if (value < rule.min || value > rule.max)
          invalid(`Variable "${name}" must be between ${rule.min} and ${rule.max}.`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') invalid(`Variable "${name}" must be a boolean.`);
        break;
    }
    result[name] = value as string | number | boolean;
  }
  return result;
}

export function documentFor(operation: PersistedOperation, variables: Variables): string {
  return typeof operation.document === 'string' ? operation.document : operation.document(variables);
}

/** A stable text for the variables (sorted names), for cache and idempotency keys. */
export function canonicalVariables(variables: Variables): string {
  return JSON.stringify(
    Object.keys(variables)
      .sort()
      .map((name) => [name, variables[name]]),
  );
}
