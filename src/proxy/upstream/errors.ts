/**
 * What an upstream failure means for the widgets. The Marketing API may speak graphql-js
 * (`extensions.code`) or AppSync / graphql-java (`errorType`, `Validation error of type …`, HTTP 401
 * `UnauthorizedException`, 429 when throttled): every one of these is mapped to one of the proxy's
 * own codes, so a browser never learns which engine answered.
 */
import { ProxyError, scrub } from '../shared/errors.ts';

/** The upstream refused the API key: the site's configuration is wrong, and retrying cannot help. */
export const UPSTREAM_KEY_REFUSED = 'upstream_key_refused';
/** The upstream throttled the proxy: answered 503 with Retry-After. */
export const UPSTREAM_THROTTLED = 'upstream_throttled';
/** The upstream refused the document (a field, argument or type it does not have): the schema changed. */
export const UPSTREAM_SCHEMA_MISMATCH = 'upstream_schema_mismatch';

/** Seconds in Retry-After when the upstream throttles without saying how long; bounds for what it says. */
export const UPSTREAM_RETRY_AFTER_SECONDS = { default: 2, min: 1, max: 60 } as const;

/**
 * An upstream failure. `mayHaveRun` is false when the upstream provably did not run the operation:
 * the connection was refused, the upstream refused the request outright (HTTP 401, 403 or 429), or
 * it answered in GraphQL with errors and no result (validation failed, or the resolver failed), so a
 * coupon request may be tried again with the same key.
 */
export class UpstreamError extends ProxyError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly mayHaveRun: boolean,
    headers: Record<string, string> = {},
  ) {
    super(status, code, message, headers);
  }
}

export interface UpstreamGraphQLError {
  message?: unknown;
  errorType?: unknown;
  extensions?: { code?: unknown; errorType?: unknown } | null;
}

type Kind =
  | 'keyRefused'
  | 'throttled'
  | 'schemaMismatch'
  | 'pageTokenRefused'
  | 'notFound'
  | 'noCouponObjective'
  | 'badUserInput'
  | 'other';

/** Most telling first: when several errors come, the answer is about the first kind in this list. */
const PRIORITY: readonly Kind[] = [
  'keyRefused',
  'throttled',
  'schemaMismatch',
  'pageTokenRefused',
  'notFound',
  'noCouponObjective',
  'badUserInput',
  'other',
];

/**
 * How each kind is recognized: by the error's type labels (`errorType`, `extensions.errorType`,
 * `extensions.code`) or its message. Data, so that every proxy speaking this contract (the WordPress
 * plugin's, from the JSON the build writes) classifies alike.
 */
export const UPSTREAM_ERROR_PATTERNS = {
  keyRefusedType:
    /^(UnauthorizedException|Unauthorized|AccessDeniedException|ForbiddenException|UNAUTHORIZED|UNAUTHENTICATED|FORBIDDEN)$/,
  throttledType: /TooManyRequests|Throttl|LimitExceeded|ProvisionedThroughputExceeded|TOO_MANY_REQUESTS|RATE_LIMITED/i,
  schemaType:
    /^(ValidationError|FieldUndefined|WrongType|UnknownType|UnknownArgument|MissingFieldArgument|InvalidSyntax|GRAPHQL_VALIDATION_FAILED|GRAPHQL_PARSE_FAILED)$/,
  schemaMessage:
    /^(Validation error of type |Invalid Syntax|Syntax Error|Cannot query field |Unknown argument |Unknown type |Variable "\$\w+" of type "[^"]*" used in position expecting|Field "[^"]*" argument "[^"]*" of type "[^"]*" is required|Variable '\w+' has (coerced Null value|an invalid value))/,
  /** The upstream no longer accepts a page token it gave (DynamoDB's wording; tokens of another deployment). */
  pageTokenMessage: /InvalidPaginationToken|invalid pagination token|nextToken is not valid/i,
  notFoundType: /not.?found/i,
  notFoundMessage: /\b(not found|does not exist|no such)\b/i,
  noCouponType: /^(NO_COUPON_OBJECTIVE|NoCouponObjective(Exception)?)$/,
  noCouponMessage: /\bno coupon objective\b|\bnot a coupon campaign\b|\bhas no coupon\b/i,
  badInputType: /^(BAD_USER_INPUT|BadRequestException|InvalidInput(Exception)?)$/,
} as const;

const {
  keyRefusedType: KEY_REFUSED_TYPE,
  throttledType: THROTTLED_TYPE,
  schemaType: SCHEMA_TYPE,
  schemaMessage: SCHEMA_MESSAGE,
  pageTokenMessage: PAGE_TOKEN_MESSAGE,
  notFoundType: NOT_FOUND_TYPE,
  notFoundMessage: NOT_FOUND_MESSAGE,
  noCouponType: NO_COUPON_TYPE,
  noCouponMessage: NO_COUPON_MESSAGE,
  badInputType: BAD_INPUT_TYPE,
} = UPSTREAM_ERROR_PATTERNS;

function labelsOf(error: UpstreamGraphQLError): string[] {
  return [error.errorType, error.extensions?.errorType, error.extensions?.code].filter(
    (label): label is string => typeof label === 'string',
  );
}

function kindOf(error: UpstreamGraphQLError): Kind {
  const labels = labelsOf(error);
  const message = typeof error.message === 'string' ? error.message : '';
  const any = (pattern: RegExp) => labels.some((label) => pattern.test(label));
  if (any(KEY_REFUSED_TYPE)) return 'keyRefused';
  if (any(THROTTLED_TYPE)) return 'throttled';
  if (any(SCHEMA_TYPE) || SCHEMA_MESSAGE.test(message)) return 'schemaMismatch';
  if (PAGE_TOKEN_MESSAGE.test(message)) return 'pageTokenRefused';
  if (any(NO_COUPON_TYPE) || NO_COUPON_MESSAGE.test(message)) return 'noCouponObjective';
  if (any(NOT_FOUND_TYPE) || NOT_FOUND_MESSAGE.test(message)) return 'notFound';
  if (any(BAD_INPUT_TYPE)) return 'badUserInput';
  return 'other';
}

/** The upstream's Retry-After in seconds (bounded), or the default. */
export function retryAfterSeconds(header: string | undefined): number {
  const seconds = Number(header);
  const { default: fallback, min, max } = UPSTREAM_RETRY_AFTER_SECONDS;
  return header && Number.isFinite(seconds) ? Math.min(max, Math.max(min, Math.ceil(seconds))) : fallback;
}

export interface FailedAnswer {
  httpStatus: number;
  errors: readonly UpstreamGraphQLError[];
  /** The upstream's Retry-After header, if any. */
  retryAfter?: string;
  /** True when the answer shows that nothing ran (GraphQL errors with no result). */
  nothingRan: boolean;
}

/** Turns a failed upstream answer into the proxy's error, with the API key scrubbed from every message. */
export function classifyFailure(answer: FailedAnswer, secrets: readonly string[]): UpstreamError {
  const { httpStatus, errors } = answer;
  const kinds = errors.map(kindOf);
  let kind: Kind = PRIORITY.find((candidate) => kinds.includes(candidate)) ?? 'other';
  if (httpStatus === 401 || httpStatus === 403) kind = 'keyRefused';
  else if (httpStatus === 429) kind = 'throttled';
  const first = errors[kinds.indexOf(kind)] ?? errors[0];
  const upstreamMessage = typeof first?.message === 'string' ? scrub(first.message, secrets) : '';
  const refusedOutright = httpStatus === 401 || httpStatus === 403 || httpStatus === 429;
  const mayHaveRun = !(refusedOutright || answer.nothingRan);
  const error = (status: number, code: string, message: string, headers?: Record<string, string>) =>
    new UpstreamError(status, code, message, mayHaveRun, headers);
  switch (kind) {
    case 'keyRefused':
      return error(
        502,
        UPSTREAM_KEY_REFUSED,
        "The Marketing API refused this site's API key: the proxy's configuration (MARKETING_API_KEY) must be fixed; trying again will not help.",
      );
    case 'throttled':
      return error(503, UPSTREAM_THROTTLED, 'The Marketing API is busy; try again shortly.', {
        'retry-after': String(retryAfterSeconds(answer.retryAfter)),
      });
    case 'schemaMismatch':
      return error(
        502,
        UPSTREAM_SCHEMA_MISMATCH,
        `The Marketing API does not accept the proxy's query (its schema differs): ${upstreamMessage || 'validation failed'}`,
      );
    case 'pageTokenRefused':
      // The proxy's cursor was sound, the upstream's token in it is no longer: the browser starts over.
      return error(400, 'invalid_cursor', 'This nextToken has expired; start again from the first page.');
    case 'notFound':
      return error(404, 'not_found', upstreamMessage || 'Not found.');
    case 'noCouponObjective':
      return error(422, 'no_coupon_objective', upstreamMessage || 'This campaign has no coupon to give.');
    case 'badUserInput':
      return error(400, 'bad_user_input', upstreamMessage || 'The Marketing API refused the input.');
    default:
      return error(
        502,
        'upstream_error',
        upstreamMessage || `The Marketing API reported an error (HTTP ${httpStatus}).`,
      );
  }
}
