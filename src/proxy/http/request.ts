/**
 * Reading the browser's call: `POST` with a JSON body `{ "operation", "variables" }` of at most 16 KiB.
 * The content-type rule (415) is what keeps a cross-site HTML form from reaching the proxy: a form can
 * only send `text/plain`, `multipart/form-data` or `application/x-www-form-urlencoded`. A read may
 * also come as `GET ?operation=…&<variable>=…`, which caches (a CDN, the browser, a `<link rel="preload">`)
 * and which a form or a link can send too: so a GET never reaches a mutation.
 */
import { ProxyError } from '../shared/errors.ts';
import { readAtMost } from '../shared/read-at-most.ts';
import {
  validateVariables,
  type OperationCall,
  type PersistedOperation,
  type VariableRule,
} from '../upstream/operations.ts';

export const MAX_BODY_BYTES = 16 * 1024;

const tooLarge = () =>
  new ProxyError(413, 'payload_too_large', `The request body must be at most ${MAX_BODY_BYTES} bytes.`);

function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const mediaType = header.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

async function readBody(request: Request, declared: boolean): Promise<Uint8Array> {
  // With a declared length the runtime's own reader is the fast path (the byte count is checked after).
  if (declared) return new Uint8Array(await request.arrayBuffer());
  // Chunked: count as it arrives and stop at the limit rather than buffer whatever is sent.
  return readAtMost(request.body, MAX_BODY_BYTES, tooLarge);
}

/**
 * Reads at most MAX_BODY_BYTES within `timeoutMs`: a client that trickles its body (slow loris) gets
 * 408 and its connection closed instead of holding the request open for as long as it likes
 * (`hono/body-limit` counts the bytes but sets no deadline: see compose.ts).
 */
async function readLimitedBody(request: Request, timeoutMs: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0)
      throw new ProxyError(400, 'bad_request', 'Invalid Content-Length.');
    if (length > MAX_BODY_BYTES) throw tooLarge();
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reading = readBody(request, declared !== null);
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ProxyError(408, 'request_timeout', 'The request body did not arrive in time.', { connection: 'close' }),
        ),
      timeoutMs,
    );
  });
  try {
    const body = await Promise.race([reading, late]);
    // A Request built by hand (or a body re-read after a parser) may carry more than it declares.
    if (body.byteLength > MAX_BODY_BYTES) throw tooLarge();
    return body;
  } finally {
    clearTimeout(timer);
    reading.catch(() => undefined); // after a timeout the abandoned read fails when the connection closes
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks content type, size and shape, and resolves the named operation with validated variables. */
export async function readOperationCall(
  request: Request,
  operations: Readonly<Record<string, PersistedOperation>>,
  timeoutMs: number,
): Promise<OperationCall> {
  if (request.method === 'GET') return readQueryString(new URL(request.url).searchParams, operations);
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ProxyError(415, 'unsupported_media_type', 'Send the request as Content-Type: application/json.');
  }
  // A compressed body would be a few bytes that inflate to anything: the widgets never send one.
  const encoding = request.headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') {
    throw new ProxyError(415, 'unsupported_media_type', 'Send the request body uncompressed (no Content-Encoding).');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(await readLimitedBody(request, timeoutMs)));
  } catch (error) {
    if (error instanceof ProxyError) throw error;
    throw new ProxyError(400, 'bad_request', 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ProxyError(400, 'bad_request', 'The request body must be a JSON object { "operation", "variables" }.');
  }
  const body = parsed as Record<string, unknown>;
  if ('query' in body) {
    throw new ProxyError(
      400,
      'bad_request',
      'GraphQL documents are not accepted; send a named "operation" and its "variables".',
    );
  }
  for (const field of Object.keys(body)) {
    if (field !== 'operation' && field !== 'variables') {
      throw new ProxyError(
        400,
        'bad_request',
        `Unknown field "${field.slice(0, 64)}"; send only "operation" and "variables".`,
      );
    }
  }
  const name = body.operation;
  if (typeof name !== 'string')
    throw new ProxyError(400, 'bad_request', '"operation" must be the name of an operation.');
  const operation = operationNamed(operations, name);
  return { name, operation, variables: validateVariables(operation, body.variables) };
}

function operationNamed(operations: Readonly<Record<string, PersistedOperation>>, name: string): PersistedOperation {
  const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
  if (!operation) {
    throw new ProxyError(
      400,
      'unknown_operation',
      `Unknown operation "${name.slice(0, 64)}"; known: ${Object.keys(operations).join(', ')}.`,
    );
  }
  return operation;
}

/** A query string's text as the variable's type: an integer's digits, `true`/`false`, or the text. */
function typedValue(rule: VariableRule, name: string, text: string): string | number | boolean {
  if (rule.type === 'string') return text;
  if (rule.type === 'int') {
    if (!/^-?\d{1,15}$/.test(text)) {
      throw new ProxyError(400, 'invalid_variables', `Variable "${name}" must be an integer.`);
    }
    return Number(text);
  }
  if (text !== 'true' && text !== 'false') {
    throw new ProxyError(400, 'invalid_variables', `Variable "${name}" must be true or false.`);
  }
  return text === 'true';
}

/** A GET read: `operation` names a query, every other parameter is one of its variables, given once. */
function readQueryString(
  parameters: URLSearchParams,
  operations: Readonly<Record<string, PersistedOperation>>,
): OperationCall {
  const names = parameters.getAll('operation');
  if (names.length !== 1) {
    throw new ProxyError(400, 'bad_request', 'Name one operation: ?operation=<name>&<variable>=<value>.');
  }
  const name = names[0]!;
  const operation = operationNamed(operations, name);
  if (operation.kind !== 'query') {
    throw new ProxyError(405, 'method_not_allowed', `"${name}" changes data: send it as POST with a JSON body.`, {
      allow: 'POST, OPTIONS',
    });
  }
  const given: Record<string, string | number | boolean> = {};
  for (const key of new Set(parameters.keys())) {
    if (key === 'operation') continue;
    const values = parameters.getAll(key);
    const rule = Object.hasOwn(operation.variables, key) ? operation.variables[key] : undefined;
    if (!rule) throw new ProxyError(400, 'invalid_variables', `Unknown variable "${key.slice(0, 64)}".`);
    if (values.length !== 1) throw new ProxyError(400, 'invalid_variables', `Variable "${key}" is given twice.`);
    given[key] = typedValue(rule, key, values[0]!);
  }
  return { name, operation, variables: validateVariables(operation, given) };
}
