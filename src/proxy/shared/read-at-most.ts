/**
 * Reading a body stream up to a byte limit, for the browser's calls and the upstream's answers alike:
 * the bytes are counted as they arrive and the stream is cancelled at the limit, so a client or server
 * that sends without end cannot make the proxy buffer whatever it sends.
 */

/**
 * The whole stream as bytes; beyond `maxBytes` it cancels the stream and throws `tooLarge()`.
 *
 * @example
 * const bytes = await readAtMost(request.body, 16 * 1024, () => new ProxyError(413, 'payload_too_large', '…'));
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
