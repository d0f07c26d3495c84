/**
 * Wallet users of the sandbox (`users.json`), seeded on first start. Passwords are stored as scrypt
 * hashes even here: the data folder is a developer's real disk, and the habit costs nothing.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { JsonFile } from '../store.ts';

/** A seeded wallet user as the README lists them: sign in with username and password. */
export interface SeedUser {
  /** Stable subject identifier (the ID token's `sub`), never the username. */
  sub: string;
  username: string;
  password: string;
  /** Wallet address, used as the loyalty ID. */
  loyaltyId: string;
}

export interface WalletUser {
  sub: string;
  username: string;
  loyaltyId: string;
}

interface StoredUser extends WalletUser {
  passwordHash: string;
}

export const SEED_USERS: readonly SeedUser[] = [
  {
    sub: 'usr_5f3a9c1e2b7d4a60',
    username: 'demo',
    password: 'demo',
    loyaltyId: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  },
  {
    sub: 'usr_a41c7e09d3b2f815',
    username: 'amelia.chen',
    password: 'amelia',
    loyaltyId: '0x71c7656ec7ab88b098defb751b7401b5f6d8976f',
  },
  {
    sub: 'usr_0e6d2b8f4c1a9357',
    username: 'jonas.weber',
    password: 'jonas',
    loyaltyId: '0xdd2fd4581271e230360230f9337d5c0430bf44c0',
  },
  {
    sub: 'usr_c98b3f5a7e2d0146',
    username: 'sofia.rossi',
    password: 'sofia',
    loyaltyId: '0x2546bcd3c84621e976d8185a91a922ae77ecec30',
  },
];

function hashPassword(password: string, salt = randomBytes(16)): string {
  return `scrypt:${salt.toString('base64url')}:${scryptSync(password, salt, 32).toString('base64url')}`;
}

function passwordMatches(password: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split(':');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(expected, actual);
}

export class UserDirectory {
  private readonly file: JsonFile<{ users: StoredUser[] }>;
  // Checked when the username is unknown too, so the answer takes as long either way.
  private readonly decoyHash = hashPassword(randomBytes(8).toString('hex'));

  constructor(dataDir: string) {
    this.file = JsonFile.in(dataDir, 'users.json', 0o600);
  }

  ensureSeeded(): void {
    if (this.file.read()?.users.length) return;
    this.file.write({
      users: SEED_USERS.map(({ password, ...user }) => ({ ...user, passwordHash: hashPassword(password) })),
    });
  }

  private all(): StoredUser[] {
    return this.file.read()?.users ?? [];
  }

  bySub(sub: string): WalletUser | undefined {
    const user = this.all().find((candidate) => candidate.sub === sub);
    return user && { sub: user.sub, username: user.username, loyaltyId: user.loyaltyId };
  }

  /** The user when the password is right, else undefined. */
  authenticate(username: string, password: string): WalletUser | undefined {
    const user = this.all().find((candidate) => candidate.username === username.trim());
    const ok = passwordMatches(password, user?.passwordHash ?? this.decoyHash);
    return ok && user ? { sub: user.sub, username: user.username, loyaltyId: user.loyaltyId } : undefined;
  }
}
