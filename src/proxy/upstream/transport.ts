/**
 * The one place that talks to the Marketing API: adds `x-api-key`, enforces the timeout, retries a
 * query once after a network failure (never a mutation: it may have minted), and turns every upstream
 * answer into either data or an UpstreamError (./upstream-errors.ts says which).
 */
import { readAtMost } from '../shared/read-at-most.ts';
import { connectionNeverOpened, describeNetworkError } from './network-errors.ts';
import { classifyFailure, UpstreamError, type UpstreamGraphQLError } from './errors.ts';

export { UpstreamError } from './errors.ts';

/** Variables as sent upstream (documents may rename or add them). */
type UpstreamVariables = Readonly<Record<string, unknown>>;

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
export type UpstreamTransport = (request: UpstreamRequest) => Promise<UpstreamReply>;

/** The upstream's answer: status, body text and, when it sent one, its Retry-After header. */
export interface UpstreamReply {
  status: number;
  text: string;
  retryAfter?: string;
}

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
  return new TextDecoder().decode(await readAtMost(response.body, maxBytes, tooLarge));
}

/**
 * The transport for every runtime: the Fetch API. Redirects are never followed (the key stays with its
 * host): `redirect: 'manual'` hands back the 3xx itself, which the proxy answers as an upstream error.
 * (`'error'` would do the same in Node, Deno and Bun, but workerd refuses it on every call.)
 */
export function fetchTransport(
  fetchImpl: typeof fetch,
  maxResponseBytes = MAX_UPSTREAM_RESPONSE_BYTES,
): UpstreamTransport {
  return async ({ url, body, headers, timeoutMs }) => {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    // Where the runtime hides the redirect (an opaque-redirect response, status 0), say "some 3xx".
    if (response.type === 'opaqueredirect') return { status: 300, text: '' };
    const retryAfter = response.headers.get('retry-after') ?? undefined;
    return { status: response.status, text: await readTextLimited(response, maxResponseBytes), retryAfter };
  };
}

export interface UpstreamSettings {
  url: string;
  apiKey: string;
  timeoutMs: number;
  transport: UpstreamTransport;
}

/** Whether an upstream answer with this HTTP status may have come after running the operation. */
const mayHaveRun = (httpStatus: number) => httpStatus !== 401 && httpStatus !== 403 && httpStatus !== 429;

interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: UpstreamGraphQLError[];
}

/** A request that runs nothing, for asking "does the upstream take connections at all?". */
const PROBE_BODY = JSON.stringify({ query: 'query ProxyProbe { __typename }' });

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function transmit(settings: UpstreamSettings, body: string): Promise<UpstreamReply> {
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
async function send(settings: UpstreamSettings, body: string, probe = false): Promise<UpstreamReply> {
  try {
    return await transmit(settings, body);
  } catch (error) {
    if (isTimeout(error)) {
      throw new UpstreamError(504, 'upstream_timeout', 'The Marketing API did not answer in time.', true);
    }
    if (error instanceof AnswerTooLargeError) {
      throw new UpstreamError(
        502,
        'upstream_error',
        'The Marketing API answered with more data than the proxy accepts.',
        true,
      );
    }
    const sent = !(await neverReached(settings, error, probe));
    const failure = new UpstreamError(502, 'upstream_unavailable', 'The Marketing API could not be reached.', sent);
    failure.cause = describeNetworkError(error); // for the access log's `detail`, never for the browser
    throw failure;
  }
}

/** One exchange with the upstream; `retry` allows one more attempt after a network failure (queries only). */
async function exchange(
  settings: UpstreamSettings,
  query: string,
  variables: UpstreamVariables,
  retry: boolean,
): Promise<UpstreamReply> {
  const requestBody = JSON.stringify({ query, variables });
  try {
    // A mutation is never retried; when its failure does not say whether it got through, a probe finds out.
    return await send(settings, requestBody, !retry);
  } catch (error) {
    if (!retry || !(error instanceof UpstreamError) || error.code !== 'upstream_unavailable') throw error;
    return send(settings, requestBody);
  }
}

function parseAnswer(reply: UpstreamReply): GraphQLAnswer {
  let answer: unknown;
  try {
    answer = JSON.parse(reply.text);
  } catch {
    if (reply.status === 401 || reply.status === 403 || reply.status === 429) throw failure(reply, [], false);
    throw new UpstreamError(
      502,
      'upstream_error',
      `The Marketing API answered with HTTP ${reply.status} and no JSON.`,
      mayHaveRun(reply.status),
    );
  }
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new UpstreamError(
      502,
      'upstream_error',
      'The Marketing API answered with an unexpected body.',
      mayHaveRun(reply.status),
    );
  }
  return answer as GraphQLAnswer;
}

function failure(
  reply: UpstreamReply,
  errors: readonly UpstreamGraphQLError[],
  nothingRan: boolean,
  secrets: readonly string[] = [],
): UpstreamError {
  return classifyFailure({ httpStatus: reply.status, errors, retryAfter: reply.retryAfter, nothingRan }, secrets);
}

const errorsOf = (answer: GraphQLAnswer): UpstreamGraphQLError[] =>
  Array.isArray(answer.errors) ? answer.errors.filter((error) => typeof error === 'object' && error !== null) : [];

/**
 * A 200 whose body is compact `{"data":{…}}` without an `"errors"` token anywhere is passed on as
 * the upstream sent it, saving a parse and a serialization of every page of campaigns (about 0.3 ms
 * per call on our CI machines). Inside JSON strings quotes are escaped, so `"errors"` cannot hide
 * in text; anything else (errors, null data, other layouts) takes the parsing path below.
 */
function isPlainSuccess(reply: UpstreamReply): boolean {
  return (
    reply.status === 200 &&
    reply.text.startsWith('{"data":{') &&
    reply.text.endsWith('}') &&
    !reply.text.includes('"errors"')
  );
}

/** The key must never reach a browser, even if an upstream were to echo it inside its data. */
export function withoutKey(body: string, apiKey: string): string {
  if (!body.includes(apiKey)) return body;
  throw new UpstreamError(
    502,
    'upstream_error',
    'The Marketing API answered with something the proxy will not pass on.',
    true,
  );
}

/**
 * A host's own operation: sends it and returns the body to pass on unchanged, `{"data": …}`; any
 * GraphQL error fails the call.
 */
export async function callUpstream(
  settings: UpstreamSettings,
  query: string,
  variables: UpstreamVariables,
  retry: boolean,
): Promise<string> {
  const reply = await exchange(settings, query, variables, retry);
  if (isPlainSuccess(reply)) return withoutKey(reply.text, settings.apiKey);
  const answer = parseAnswer(reply);
  const errors = errorsOf(answer);
  const noData = answer.data === undefined || answer.data === null;
  if (errors.length > 0) throw failure(reply, errors, noData && reply.status < 500, [settings.apiKey]);
  if (reply.status < 200 || reply.status > 299 || noData) throw failure(reply, [], false);
  return withoutKey(JSON.stringify({ data: answer.data }), settings.apiKey);
}

/** The result of one field: its value (null when the upstream says so) and whether errors came with it. */
export interface FieldAnswer {
  value: unknown;
  /** GraphQL errors came with a usable result (partial data): the value may hold nulls for them. */
  partial: boolean;
}

/**
 * A built-in operation: sends it and returns the value of its one top-level `field`. Partial data
 * (HTTP 200 with errors and a non-null result) is a result; errors without a result are classified.
 */
export async function fetchField(
  settings: UpstreamSettings,
  query: string,
  variables: UpstreamVariables,
  retry: boolean,
  field: string,
): Promise<FieldAnswer> {
  const reply = await exchange(settings, query, variables, retry);
  const answer = parseAnswer(reply);
  const errors = errorsOf(answer);
  const success = reply.status >= 200 && reply.status <= 299;
  const data =
    answer.data !== null && typeof answer.data === 'object' && !Array.isArray(answer.data) ? answer.data : undefined;
  const value = data?.[field];
  if (errors.length > 0) {
    if (success && value !== undefined && value !== null) return { value, partial: true };
    // Errors with no result: the engine validated the document and refused it, or the resolver failed.
    throw failure(reply, errors, reply.status < 500, [settings.apiKey]);
  }
  if (!success) throw failure(reply, [], false);
  if (!data || value === undefined) {
    throw new UpstreamError(502, 'upstream_error', `The Marketing API answered without "${field}".`, true);
  }
  return { value, partial: false };
}
