/** Small crypto helpers shared by Connect and Marketing. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a secret from a request with the expected one in constant time. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** SHA-256, base64url: how bearer secrets (tokens, session ids) are stored, so a leaked file grants nothing. */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
