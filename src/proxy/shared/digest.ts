import { toHex } from '../../shared/hex.ts';

/** SHA-256 as hex through Web Crypto, available in Node and every Fetch runtime. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}
