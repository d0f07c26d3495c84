/**
 * Page tokens shaped like AppSync's for Amplify models: 1 to 2 kB of standard base64 (with `+`, `/`
 * and `=` padding), encrypted and authenticated (AES-256-GCM) with a key of this sandbox run. A token
 * edited by hand, issued by another sandbox run, or for the other list is refused.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
// The real tokens carry the table's last evaluated key, encrypted; random filler stands in for it.
const FILLER_BYTES = 700;

export class AppSyncPageTokens {
  private readonly key = randomBytes(32);

  encode(scope: string, offset: number): string {
    let plain = JSON.stringify({ scope, offset, key: randomBytes(FILLER_BYTES).toString('base64') });
    // Whole bytes ≡ 1 (mod 3) end the base64 with "==", as the real tokens' padding does.
    while ((IV_BYTES + TAG_BYTES + Buffer.byteLength(plain)) % 3 !== 1) plain += ' ';
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64');
  }

  /** The offset the token stands for, or undefined for a token this run did not issue for `scope`. */
  decode(scope: string, token: string): number | undefined {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token) || token.length % 4 !== 0) return undefined;
    const bytes = Buffer.from(token, 'base64');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const payload = JSON.parse(plain) as { scope?: unknown; offset?: unknown };
      if (
        payload.scope !== scope ||
        typeof payload.offset !== 'number' ||
        !Number.isSafeInteger(payload.offset) ||
        payload.offset < 0
      )
        return undefined;
      return payload.offset;
    } catch {
      return undefined;
    }
  }
}
