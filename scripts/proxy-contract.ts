/**
 * What every Marketing proxy must agree on, read from the Node proxy's own source: the named
 * operations and their variable rules, the GraphQL documents sent upstream, the limits, rate limits,
 * cache and Idempotency-Key rules, the CORS headers, how upstream errors are recognized, and the first
 * page a server prints inside a widget's mount (src/proxy/render/: its template as data and the fixed
 * values of its display model). The WordPress plugin's proxy loads it as `contract.json` (written into
 * the plugin's zip), so the two proxies share one definition rather than two hand-kept copies.
 */
import { DEFAULT_CACHE } from '../src/proxy/http/cache.ts';
import { DEFAULT_HEADING_LEVEL, IMAGE_SIZES } from '../src/marketing/first-page-display.ts';
import { VOID_ELEMENTS } from '../src/marketing/first-page-markup.ts';
import { FIRST_PAGE_TEMPLATES } from '../src/marketing/first-page-template.ts';
import { FIRST_PAGE_ATTRIBUTE, MOUNT_ATTRIBUTE } from '../src/shared/mount-attributes.ts';
import { CAROUSEL_PAGE_SIZE, DIRECTORY_PAGE_SIZE } from '../src/shared/page-size.ts';
import {
  ALLOWED_METHODS,
  ALLOWED_REQUEST_HEADERS,
  EXPOSED_RESPONSE_HEADERS,
  PREFLIGHT_MAX_AGE_SECONDS,
} from '../src/proxy/http/cors.ts';
import { IDEMPOTENCY_RECORD_TTL_MS, KEY_FORMAT, REFUSAL_RECORD_TTL_MS } from '../src/proxy/http/idempotency.ts';
import { DEFAULT_RATE_LIMITS } from '../src/proxy/http/rate-limit.ts';
import { MAX_BODY_BYTES } from '../src/proxy/http/request.ts';
import { DEFAULT_TIMEOUT_MS, MINT_TIMEOUT_FACTOR } from '../src/proxy/app/options.ts';
import {
  MAX_ID_TOKEN_LENGTH,
  MAX_PROFILE_TTL_MS,
  MAX_TOKEN_LENGTH,
  REFUSED_TTL_MS,
} from '../src/proxy/shopper/signin.ts';
import { DEFAULT_PAGE_SIZE } from '../src/proxy/upstream/built-ins.ts';
import { KEY_LABEL } from '../src/proxy/upstream/cursor.ts';
import { UPSTREAM_ERROR_PATTERNS, UPSTREAM_RETRY_AFTER_SECONDS } from '../src/proxy/upstream/errors.ts';
import {
  BUILT_IN_OPERATIONS,
  documentFor,
  IMAGE_WIDTHS,
  MAX_STRING_LENGTH,
  type Variables,
} from '../src/proxy/upstream/operations.ts';
import { DEFAULT_PAGE_FILL } from '../src/proxy/upstream/pages.ts';

/** A JavaScript pattern as PCRE reads it: the same text between delimiters, `u` for Unicode, the same flags. */
function pcre(pattern: RegExp): string {
  return `~${pattern.source.replaceAll('~', '\\~')}~u${pattern.flags.replace(/[gu]/g, '')}`;
}

/** The filter variable of a paged operation: the one besides `limit` and `nextToken`. */
function filterOf(name: string): string | undefined {
  const { variables } = BUILT_IN_OPERATIONS[name]!;
  if (!('nextToken' in variables)) return undefined;
  return Object.keys(variables).find((variable) => variable !== 'limit' && variable !== 'nextToken');
}

export function proxyContract() {
  const operations = Object.fromEntries(
    Object.entries(BUILT_IN_OPERATIONS).map(([name, operation]) => {
      const filter = filterOf(name);
      const documents: Record<string, string> = { plain: documentFor(operation, {}) };
      if (filter) documents.filtered = documentFor(operation, { [filter]: 'x' } satisfies Variables);
      return [
        name,
        {
          kind: operation.kind,
          variables: operation.variables,
          paged: 'nextToken' in operation.variables,
          ...(filter ? { filter } : {}),
          documents,
        },
      ];
    }),
  );
  return {
    operations,
    limits: {
      maxBodyBytes: MAX_BODY_BYTES,
      maxStringLength: MAX_STRING_LENGTH,
      defaultPageSize: DEFAULT_PAGE_SIZE,
      pageFill: DEFAULT_PAGE_FILL,
      imageWidths: IMAGE_WIDTHS,
      timeoutMs: DEFAULT_TIMEOUT_MS,
      mintTimeoutFactor: MINT_TIMEOUT_FACTOR,
    },
    rateLimits: DEFAULT_RATE_LIMITS,
    cache: DEFAULT_CACHE,
    idempotency: {
      keyPattern: pcre(KEY_FORMAT),
      recordTtlMs: IDEMPOTENCY_RECORD_TTL_MS,
      refusalTtlMs: REFUSAL_RECORD_TTL_MS,
    },
    cors: {
      allowedMethods: ALLOWED_METHODS,
      allowedRequestHeaders: ALLOWED_REQUEST_HEADERS,
      exposedResponseHeaders: EXPOSED_RESPONSE_HEADERS,
      preflightMaxAgeSeconds: PREFLIGHT_MAX_AGE_SECONDS,
    },
    cursor: { keyLabel: KEY_LABEL, macBytes: 16 },
    signin: {
      maxAccessTokenLength: MAX_TOKEN_LENGTH,
      maxIdTokenLength: MAX_ID_TOKEN_LENGTH,
      maxProfileTtlMs: MAX_PROFILE_TTL_MS,
      refusedTtlMs: REFUSED_TTL_MS,
    },
    upstreamErrors: {
      patterns: Object.fromEntries(
        Object.entries(UPSTREAM_ERROR_PATTERNS).map(([name, pattern]) => [name, pcre(pattern)]),
      ),
      retryAfterSeconds: UPSTREAM_RETRY_AFTER_SECONDS,
    },
    firstPage: {
      templates: FIRST_PAGE_TEMPLATES,
      voidElements: VOID_ELEMENTS,
      imageSizes: IMAGE_SIZES,
      defaultHeadingLevel: DEFAULT_HEADING_LEVEL,
      pageSizes: { 'campaign-carousel': CAROUSEL_PAGE_SIZE, 'business-directory': DIRECTORY_PAGE_SIZE },
      mountAttribute: MOUNT_ATTRIBUTE,
      firstPageAttribute: FIRST_PAGE_ATTRIBUTE,
    },
  };
}

export function proxyContractJson(): string {
  return `${JSON.stringify(proxyContract(), null, 1)}\n`;
}
