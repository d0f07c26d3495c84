/** Bytes as lower-case hex, two digits a byte (digests, random keys). */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
