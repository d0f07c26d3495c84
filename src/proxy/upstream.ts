/**
 * The one place that talks to the Marketing API: adds `x-api-key`, enforces the timeout, retries a
 * query once after a network failure (never a mutation: it may have minted), and turns every upstream
 * answer into either the proxy's success body `{"data": …}` or a ProxyError with a fitting status.
 */
import { ProxyError, scrub } from './errors.ts';
import { connectionNeverOpened, describeNetworkError } from './network-errors.ts';
import type { Variables } from './operations.ts';

/** One upstream POST: what the proxy sends and the status and text it gets back. */
export interface UpstreamRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** For the whole exchange, answer body included. */
  timeoutMs: number;
}

/**
 * How the proxy sends its upstream requests. It rejects with an error named `TimeoutError` when the
 * time is up, and with the runtime's own network error otherwise (network-errors.ts reads it).
 */
export type UpstreamTransport = (request: UpstreamRequest) => Promise<{ status: number; text: string }>;

/** Upstream answers larger than this are refused: the Marketing answers are a few kB. */
export const MAX_UPSTREAM_RESPONSE_BYTES = 8 * 1024 * 1024;

/** An answer over the size limit: the server did answer, so asking again would only read it twice. */
export class AnswerTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`The answer is larger than ${maxBytes} bytes.`);
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * A response's body as text, refusing (and cancelling) it beyond `maxBytes`, so a broken or hostile
 * server cannot make the proxy buffer whatever it sends.
 */
export async function readTextLimited(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new AnswerTooLargeError(maxBytes);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * The transport for every runtime: the Fetch API. Redirects are never followed (the key stays with its
 * host): `redirect: 'manual'` hands back the 3xx itself, which the proxy answers as an upstream error.
 * (`'error'` would do the same in Node, Deno and Bun, but workerd refuses it on every call.)
 */
export function fetchTransport(fetchImpl: typeof fetch, maxResponseBytes = MAX_UPSTREAM_RESPONSE_BYTES): UpstreamTransport {
  return async ({ url, body, headers, timeoutMs }) => {
    const response = await fetchImpl(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    // Where the runtime hides the redirect (an opaque-redirect response, status 0), say "some 3xx".
    if (response.type === 'opaqueredirect') return { status: 300, text: '' };
    return { status: response.status, text: await readTextLimited(response, maxResponseBytes) };
  };
}

export interface UpstreamSettings {
  url: string;
  apiKey: string;
  timeoutMs: number;
  transport: UpstreamTransport;
}

/** Upstream GraphQL error codes and the HTTP status the browser gets for them; others give 502. */
export const UPSTREAM_ERROR_STATUS: Readonly<Record<string, number>> = {
  BAD_USER_INPUT: 400,
  NOT_FOUND: 404,
  NO_COUPON_OBJECTIVE: 422,
};

/**
 * An upstream failure. `mayHaveRun` is false when the upstream provably did not run the operation:
 * the connection was refused, or the upstream refused the request outright (HTTP 401, 403 or 429:
 * a wrong key, or its own rate limit), so a coupon request may be tried again with the same key.
 */
export class UpstreamError extends ProxyError {
  constructor(status: number, code: string, message: string, readonly mayHaveRun: boolean) {
    super(status, code, message);
  }
}

/** Whether an upstream answer with this HTTP status may have come after running the operation. */
const mayHaveRun = (httpStatus: number) => httpStatus !== 401 && httpStatus !== 403 && httpStatus !== 429;

interface GraphQLAnswer {
  data?: unknown;
  errors?: { message?: unknown; extensions?: { code?: unknown } }[];
}

/** A request that runs nothing, for asking "does the upstream take connections at all?". */
const PROBE_BODY = JSON.stringify({ query: 'query ProxyProbe { __typename }' });

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function transmit(settings: UpstreamSettings, body: string): Promise<{ status: number; text: string }> {
  return settings.transport({
    url: settings.url,
    body,
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': settings.apiKey },
    timeoutMs: settings.timeoutMs,
  });
}

/**
 * Whether a failed request provably never reached the upstream. When the runtime's error does not
 * say (workerd), one harmless probe decides: failing the very same way, the upstream takes no
 * connection at all; answered or failing otherwise, the upstream was there and may have run it.
 */
async function neverReached(settings: UpstreamSettings, error: unknown, probe: boolean): Promise<boolean> {
  const said = connectionNeverOpened(error);
  if (said !== undefined || !probe) return said === true;
  try {
    await transmit(settings, PROBE_BODY);
    return false;
  } catch (probeError) {
    return describeNetworkError(probeError) === describeNetworkError(error);
  }
}

/** `probe`: for a mutation, find out whether a failure without an answer can have run it. */
async function send(settings: UpstreamSettings, body: string, probe = false): Promise<{ status: number; text: string }> {
  try {
    return await transmit(settings, body);
  } catch (error) {
    if (isTimeout(error)) {
      throw new UpstreamError(504, 'upstream_timeout', 'The Marketing API did not answer in time.', true);
    }
    if (error instanceof AnswerTooLargeError) {
      throw new UpstreamError(502, 'upstream_error', 'The Marketing API answered with more data than the proxy accepts.', true);
    }
    const sent = !(await neverReached(settings, error, probe));
    const failure = new UpstreamError(502, 'upstream_unavailable', 'The Marketing API could not be reached.', sent);
    failure.cause = describeNetworkError(error); // for the access log's `detail`, never for the browser
    throw failure;
  }
}

function toProxyError(answer: GraphQLAnswer, httpStatus: number, secrets: readonly string[]): ProxyError {
  const first = answer.errors?.[0];
  const rawCode = first?.extensions?.code;
  const code = typeof rawCode === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(rawCode) ? rawCode : 'upstream_error';
  const message = typeof first?.message === 'string' ? scrub(first.message, secrets) : 'The Marketing API reported an error.';
  // Upstream codes are passed on in the proxy's own lower-case style: NOT_FOUND → not_found.
  return new UpstreamError(UPSTREAM_ERROR_STATUS[code] ?? 502, code.toLowerCase(), message, mayHaveRun(httpStatus));
}

/**
 * A 200 whose body is compact `{"data":{…}}` without an `"errors"` token anywhere is passed on as
 * the upstream sent it, saving a parse and a serialization of every page of campaigns (about 0.3 ms
 * per call on our CI machines). Inside JSON strings quotes are escaped, so `"errors"` cannot hide
 * in text; anything else (errors, null data, other layouts) takes the parsing path below.
 */
function isPlainSuccess(reply: { status: number; text: string }): boolean {
  return reply.status === 200 && reply.text.startsWith('{"data":{') && reply.text.endsWith('}') && !reply.text.includes('"errors"');
}

/** The key must never reach a browser, even if an upstream were to echo it inside its data. */
function withoutKey(body: string, apiKey: string): string {
  if (!body.includes(apiKey)) return body;
  throw new UpstreamError(502, 'upstream_error', 'The Marketing API answered with something the proxy will not pass on.', true);
}

/**
 * Sends one operation upstream and returns the body to pass on, `{"data": …}`. `retry` allows one
 * more attempt after a network failure (for queries only).
 */
export async function callUpstream(
  settings: UpstreamSettings,
  query: string,
  variables: Variables,
  retry: boolean,
): Promise<string> {
  const requestBody = JSON.stringify({ query, variables });
  let reply: { status: number; text: string };
  try {
    reply = await send(settings, requestBody, !retry);
  } catch (error) {
    if (!retry || !(error instanceof UpstreamError) || error.code !== 'upstream_unavailable') throw error;
    reply = await send(settings, requestBody);
  }
  if (isPlainSuccess(reply)) return withoutKey(reply.text, settings.apiKey);
  let answer: GraphQLAnswer;
  try {
    answer = JSON.parse(reply.text) as GraphQLAnswer;
  } catch {
    throw new UpstreamError(502, 'upstream_error', `The Marketing API answered with HTTP ${reply.status} and no JSON.`, mayHaveRun(reply.status));
  }
  if (answer === null || typeof answer !== 'object') {
    throw new UpstreamError(502, 'upstream_error', 'The Marketing API answered with an unexpected body.', mayHaveRun(reply.status));
  }
  if (Array.isArray(answer.errors) && answer.errors.length > 0) throw toProxyError(answer, reply.status, [settings.apiKey]);
  if (reply.status < 200 || reply.status > 299 || answer.data === undefined || answer.data === null) {
    throw new UpstreamError(502, 'upstream_error', `The Marketing API answered with HTTP ${reply.status}.`, mayHaveRun(reply.status));
  }
  return withoutKey(JSON.stringify({ data: answer.data }), settings.apiKey);
}
