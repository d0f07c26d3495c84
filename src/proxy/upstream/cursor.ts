/**
 * The proxy's own page cursors (the `nextToken` a browser gets for `campaigns` and
 * `businessAccounts`). A cursor says where the next page starts upstream: the upstream token of the
 * page to read (none for the first), the `limit` it was read with (a page depends on it), and how many
 * of that page's items were already served. It is opaque and tamper-evident: an HMAC-SHA-256 over
 * the operation, the browser's filter variables and the position, so a cursor edited, made up, or
 * taken from another list is refused (400 `invalid_cursor`) before anything goes upstream.
 *
 * Its key is derived from a secret all instances share (the API key unless `cursorSecret` is set), so
 * any instance behind a load balancer accepts any other's cursors. Not encrypted: it carries nothing
 * the browser may not see (the upstream token was passed to browsers before the proxy had cursors).
 *
 * Layout: base64url(header JSON, "\n", upstream token bytes) "." base64url(first 16 bytes of the MAC).
 * An upstream token in standard base64 (AppSync's are) is stored decoded, so a 2 kB token makes a
 * cursor of about 2 kB rather than 2.7 kB.
 */
import { ProxyError } from '../shared/errors.ts';
import { MAX_NEXT_TOKEN_LENGTH } from './operations.ts';
import { UpstreamError } from './errors.ts';

/** Where a page starts upstream. */
export interface PagePosition {
  /** The upstream nextToken of the page to read; null for the list's first page. */
  token: string | null;
  /** The `limit` that page is read with. */
  limit: number;
  /** How many of that page's items were already served (they are skipped). */
  skip: number;
}

const MAC_BYTES = 16;
export const KEY_LABEL = 'loyalty-proxy page cursor v1';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

interface Header {
  v: 1;
  /** Upstream token encoding: 'b' stored decoded from base64, 'u' as UTF-8, absent when there is none. */
  e?: 'b' | 'u';
  l: number;
  s: number;
}

function portableToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

/** How a cursor's bytes are written: base64 (standard and URL-safe, unpadded) and UTF-8. */
export interface CursorEncoding {
  toBase64(bytes: Uint8Array): string;
  toBase64Url(bytes: Uint8Array): string;
  /** Decodes text that is valid, padded standard base64 (checked before). */
  fromBase64(text: string): Uint8Array;
  utf8(text: string): Uint8Array;
}

/** For every runtime: btoa, atob and TextEncoder. */
export const PORTABLE_ENCODING: CursorEncoding = {
  toBase64: portableToBase64,
  toBase64Url: (bytes) => portableToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  fromBase64,
  utf8: (text) => encoder.encode(text),
};

interface NodeBuffer {
  from(text: string, encoding: 'base64' | 'utf8'): Uint8Array;
  from(
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ): { toString(encoding: 'base64' | 'base64url'): string };
}

/**
 * Where the runtime has node:buffer (found without an import, as node:crypto below), its native
 * base64 writes a page's cursor in a fraction of the time btoa over a binary string takes. The text is
 * the same.
 */
export function encodingFor(
  buffer: NodeBuffer | null = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => { Buffer?: NodeBuffer } | undefined } }
  ).process?.getBuiltinModule?.('node:buffer')?.Buffer ?? null,
): CursorEncoding {
  if (!buffer) return PORTABLE_ENCODING;
  const view = (bytes: Uint8Array) => buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    toBase64: (bytes) => view(bytes).toString('base64'),
    toBase64Url: (bytes) => view(bytes).toString('base64url'),
    fromBase64: (text) => buffer.from(text, 'base64'),
    utf8: (text) => buffer.from(text, 'utf8'),
  };
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Constant-time comparison of two MACs. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a[index]! ^ b[index]!;
  return difference === 0;
}

export function invalidCursor(): ProxyError {
  return new ProxyError(
    400,
    'invalid_cursor',
    'This nextToken was not issued by this proxy for this list; start again from the first page.',
  );
}

/** node:crypto's synchronous HMAC, as far as the cursors use it. */
interface NodeHmac {
  createHmac(
    algorithm: 'sha256',
    key: Uint8Array | string,
  ): { update(data: Uint8Array | string): { digest(): Uint8Array } };
}

/**
 * Where the runtime has node:crypto (Node; found without an import, so bundles for other runtimes
 * never meet it), cursors are signed with its synchronous HMAC: Web Crypto's `subtle.sign` costs a
 * promise and a thread-pool hop per call, a large part of a page's own CPU. The bytes are the same.
 */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeHmac | undefined;

export type Signer = (data: Uint8Array<ArrayBuffer>) => Promise<Uint8Array> | Uint8Array;

/** The cursors' HMAC, keyed by a key derived from the secret under a label of its own: the API key itself never signs a cursor. */
export function signerFor(secret: string, node: NodeHmac | null = nodeCrypto ?? null): Signer {
  if (node) {
    const derived = node.createHmac('sha256', secret).update(KEY_LABEL).digest();
    return (data) => node.createHmac('sha256', derived).update(data).digest();
  }
  const hmac = { name: 'HMAC', hash: 'SHA-256' };
  const key = (async () => {
    const root = await crypto.subtle.importKey('raw', encoder.encode(secret), hmac, false, ['sign']);
    const derived = new Uint8Array(await crypto.subtle.sign('HMAC', root, encoder.encode(KEY_LABEL)));
    return crypto.subtle.importKey('raw', derived, hmac, false, ['sign']);
  })();
  return async (data) => new Uint8Array(await crypto.subtle.sign('HMAC', await key, data));
}

export class PageCursors {
  private readonly sign: Signer;
  private readonly encoding: CursorEncoding;

  /** @param secret shared by every instance that must accept the others' cursors. */
  constructor(secret: string, sign: Signer = signerFor(secret), encoding: CursorEncoding = encodingFor()) {
    this.sign = sign;
    this.encoding = encoding;
  }

  private async mac(scope: string, payload: Uint8Array): Promise<Uint8Array> {
    return (await this.sign(concat(this.encoding.utf8(`${scope}\n`), payload))).subarray(0, MAC_BYTES);
  }

  /**
   * The cursor for `position` in the list `scope` (the operation and the browser's filter variables).
   * An upstream token too long to fit the protocol's nextToken is the upstream's failure (502).
   */
  async seal(scope: string, position: PagePosition): Promise<string> {
    const { toBase64, toBase64Url, utf8 } = this.encoding;
    const header: Header = { v: 1, l: position.limit, s: position.skip };
    let tokenBytes: Uint8Array = new Uint8Array();
    if (position.token !== null) {
      const decoded = BASE64.test(position.token) ? this.encoding.fromBase64(position.token) : undefined;
      // Only a token that decodes and encodes back to itself is stored decoded (padding bits may differ).
      header.e = decoded && toBase64(decoded) === position.token ? 'b' : 'u';
      tokenBytes = header.e === 'b' ? decoded! : utf8(position.token);
    }
    const payload = concat(utf8(`${JSON.stringify(header)}\n`), tokenBytes);
    const cursor = `${toBase64Url(payload)}.${toBase64Url(await this.mac(scope, payload))}`;
    if (cursor.length > MAX_NEXT_TOKEN_LENGTH) {
      throw new UpstreamError(502, 'upstream_error', 'The Marketing API gave a page token too long to pass on.', true);
    }
    return cursor;
  }

  /** The position a cursor of the list `scope` stands for; 400 `invalid_cursor` for anything else. */
  async open(scope: string, cursor: string): Promise<PagePosition> {
    let payload: Uint8Array;
    let mac: Uint8Array;
    try {
      const [encodedPayload, encodedMac, extra] = cursor.split('.');
      if (encodedPayload === undefined || encodedMac === undefined || extra !== undefined) throw invalidCursor();
      payload = fromBase64Url(encodedPayload);
      mac = fromBase64Url(encodedMac);
    } catch {
      throw invalidCursor();
    }
    if (!sameBytes(mac, await this.mac(scope, payload))) throw invalidCursor();
    // Authentic from here on: the proxy wrote it, so a parse failure is a cursor of another version.
    try {
      const newline = payload.indexOf(0x0a);
      const header = JSON.parse(decoder.decode(payload.subarray(0, newline))) as Header;
      const tokenBytes = payload.subarray(newline + 1);
      if (header.v !== 1 || !Number.isSafeInteger(header.l) || !Number.isSafeInteger(header.s)) throw invalidCursor();
      const token =
        header.e === 'b' ? this.encoding.toBase64(tokenBytes) : header.e === 'u' ? decoder.decode(tokenBytes) : null;
      return { token, limit: header.l, skip: header.s };
    } catch {
      throw invalidCursor();
    }
  }
}
