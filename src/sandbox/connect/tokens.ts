/**
 * Tokens Connect issues. Access tokens are opaque random strings; the server keeps (by SHA-256 of
 * the token, never the token itself) whose they are, for which app and scope, and until when, in
 * `tokens.json`. ID tokens are RS256 JWTs signed with the key ring's newest key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { digest } from '../crypto.ts';
import type { KeyRing } from '../keys.ts';
import { JsonFile } from '../store.ts';

export interface AccessTokenRecord {
  sub: string;
  appId: string;
  scope: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

interface TokenFile {
  tokens: Record<string, AccessTokenRecord>;
}

/** OpenID Connect Core §3.2.2.9: base64url of the left half of the SHA-256 of the ASCII access token. */
export function atHash(accessToken: string): string {
  const hash = createHash('sha256').update(accessToken, 'ascii').digest();
  return hash.subarray(0, hash.length / 2).toString('base64url');
}

export class AccessTokens {
  private readonly file: JsonFile<TokenFile>;

  constructor(dataDir: string) {
    this.file = JsonFile.in<TokenFile>(dataDir, 'tokens.json', 0o600);
  }

  issue(record: AccessTokenRecord): string {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    this.file.update(
      () => ({ tokens: {} }),
      (file) => {
        // Expired tokens are dropped as new ones are written, so the file stays small.
        const live = Object.entries(file.tokens).filter(([, stored]) => stored.expiresAt > now);
        return { tokens: { ...Object.fromEntries(live), [digest(token)]: record } };
      },
    );
    return token;
  }

  /** The token's record, or undefined when it is unknown or expired. */
  lookup(token: string): AccessTokenRecord | undefined {
    const record = this.file.read()?.tokens[digest(token)];
    return record && record.expiresAt > Date.now() ? record : undefined;
  }
}

export interface IdTokenInput {
  issuer: string;
  sub: string;
  audience: string;
  nonce: string;
  /** Seconds since the epoch when the user last entered their password. */
  authTime: number;
  lifetimeSeconds: number;
  /** Issued at, in seconds since the epoch; the access token's expiry counts from the same instant. */
  now: number;
  accessToken?: string;
  /** User claims carried in the ID token itself: only when no access token is issued (OpenID Connect Core §5.4). */
  userClaims?: Record<string, string>;
}

export async function signIdToken(keys: KeyRing, input: IdTokenInput): Promise<string> {
  const { kid, key } = await keys.signingKey();
  const now = input.now;
  const claims: Record<string, unknown> = { ...input.userClaims, nonce: input.nonce, auth_time: input.authTime };
  if (input.accessToken) claims.at_hash = atHash(input.accessToken);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(input.issuer)
    .setSubject(input.sub)
    .setAudience(input.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + input.lifetimeSeconds)
    .sign(key);
}
