/**
 * Connect's RS256 signing keys, kept as JWKs in `keys.json` (mode 0600) in the data folder. The
 * newest key signs; every key stays published in /jwks so tokens signed before a rotation still verify.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { JsonFile } from './store.ts';

interface StoredKey {
  kid: string;
  createdAt: string;
  privateJwk: JWK;
}

interface KeyFile {
  keys: StoredKey[];
}

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

function publicPart(jwk: JWK): JWK {
  const copy: JWK = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy;
}

export class KeyRing {
  private readonly file: JsonFile<KeyFile>;
  private readonly imported = new Map<string, CryptoKey>();

  constructor(dataDir: string) {
    this.file = JsonFile.in<KeyFile>(dataDir, 'keys.json', 0o600);
  }

  /** Creates the first key when the data folder has none. */
  async ensureKey(): Promise<void> {
    if (!this.file.read()?.keys.length) await this.addKey();
  }

  /** Generates a new key, which signs from now on; returns its kid. */
  async addKey(): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(publicPart(privateJwk));
    const stored: StoredKey = {
      kid,
      createdAt: new Date().toISOString(),
      privateJwk: { ...privateJwk, kid, alg: 'RS256', use: 'sig' },
    };
    this.file.update(
      () => ({ keys: [] }),
      (file) => ({ keys: [...file.keys, stored] }),
    );
    return kid;
  }

  private stored(): StoredKey[] {
    const keys = this.file.read()?.keys ?? [];
    if (keys.length === 0) throw new Error(`No signing key in ${this.file.path}`);
    return keys;
  }

  /** The newest key. Read from disk each time (cached by mtime), so `add-key` from the CLI takes effect at once. */
  async signingKey(): Promise<SigningKey> {
    const newest = this.stored().at(-1)!;
    let key = this.imported.get(newest.kid);
    if (!key) {
      key = (await importJWK(newest.privateJwk, 'RS256')) as CryptoKey;
      this.imported.set(newest.kid, key);
    }
    return { kid: newest.kid, key };
  }

  /** The JWK Set served at /jwks: public parts only, each named and marked as an RS256 signing key, newest first. */
  jwks(): { keys: JWK[] } {
    return {
      keys: this.stored()
        .map((stored) => ({ ...publicPart(stored.privateJwk), kid: stored.kid, use: 'sig', alg: 'RS256' }))
        .reverse(),
    };
  }
}
