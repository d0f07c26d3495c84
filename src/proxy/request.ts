/**
 * Reading the browser's call: `POST` with a JSON body `{ "operation", "variables" }` of at most 16 KiB.
 * The content-type rule (415) is what keeps a cross-site HTML form from reaching the proxy: a form can
 * only send `text/plain`, `multipart/form-data` or `application/x-www-form-urlencoded`.
 */
import { ProxyError } from './errors.ts';
import { validateVariables, type PersistedOperation, type Variables } from './operations.ts';

export const MAX_BODY_BYTES = 16 * 1024;

export interface OperationCall {
  name: string;
  operation: PersistedOperation;
  variables: Variables;
}

const tooLarge = () => new ProxyError(413, 'payload_too_large', `The request body must be at most ${MAX_BODY_BYTES} bytes.`);

function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const mediaType = header.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

async function readLimitedBody(request: Request): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) throw new ProxyError(400, 'bad_request', 'Invalid Content-Length.');
    if (length > MAX_BODY_BYTES) throw tooLarge();
    // The runtime enforces the declared length, so the whole body can be read at once.
    return new Uint8Array(await request.arrayBuffer());
  }
  // Chunked: count as it arrives and stop at the limit rather than buffer whatever is sent.
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks content type, size and shape, and resolves the named operation with validated variables. */
export async function readOperationCall(
  request: Request,
  operations: Readonly<Record<string, PersistedOperation>>,
): Promise<OperationCall> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ProxyError(415, 'unsupported_media_type', 'Send the request as Content-Type: application/json.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(await readLimitedBody(request)));
  } catch (error) {
    if (error instanceof ProxyError) throw error;
    throw new ProxyError(400, 'bad_request', 'The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ProxyError(400, 'bad_request', 'The request body must be a JSON object { "operation", "variables" }.');
  }
  const body = parsed as Record<string, unknown>;
  if ('query' in body) {
    throw new ProxyError(400, 'bad_request', 'GraphQL documents are not accepted; send a named "operation" and its "variables".');
  }
  for (const field of Object.keys(body)) {
    if (field !== 'operation' && field !== 'variables') {
      throw new ProxyError(400, 'bad_request', `Unknown field "${field.slice(0, 64)}"; send only "operation" and "variables".`);
    }
  }
  const name = body.operation;
  if (typeof name !== 'string') throw new ProxyError(400, 'bad_request', '"operation" must be the name of an operation.');
  const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
  if (!operation) {
    throw new ProxyError(400, 'unknown_operation', `Unknown operation "${name.slice(0, 64)}"; known: ${Object.keys(operations).join(', ')}.`);
  }
  return { name, operation, variables: validateVariables(operation, body.variables) };
}
