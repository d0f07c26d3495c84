/**
 * The server entries that need a package only some merchants install (`@hono/node-server` for the
 * Node adapter, `redis` for the shared store, `graphql` and `hono` for the sandbox; all optional
 * peer dependencies) load it through here, so its absence reads as one sentence with the command
 * that installs it instead of a resolver's stack trace. Only "this package is not installed" is
 * translated; every other failure, including a broken file inside an installed package, passes on.
 */
import { createRequire } from 'node:module';

/** A feature and the packages it needs beside loyalty-widgets, in the order `npm install` gets them. */
export interface PeerNeed {
  /** What the merchant tried to use, as the sentence's subject: "The Node adapter of the Marketing proxy". */
  feature: string;
  packages: readonly string[];
}

export class MissingPeerDependencyError extends Error {
  override name = 'MissingPeerDependencyError';
  readonly code = 'ERR_LOYALTY_WIDGETS_MISSING_PEER';
  readonly missing: string;

  constructor(need: PeerNeed, missing: string, options?: ErrorOptions) {
    const list = need.packages.join(', ');
    super(
      `${need.feature} needs ${need.packages.length > 1 ? 'the packages' : 'the package'} ${list}; ` +
        `${missing} is not installed. Install with: npm install ${need.packages.join(' ')}`,
      options,
    );
    this.missing = missing;
  }
}

/** `hono/ws` → `hono`, `@hono/node-server/x` → `@hono/node-server`; paths are no package. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || /^[a-z]+:/i.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The package that a "cannot find" error from `import()` (ERR_MODULE_NOT_FOUND, "Cannot find
 * package 'x' imported from …") or `require()` (MODULE_NOT_FOUND, "Cannot find module 'x'") is
 * about, or undefined for any other error.
 */
export function missingPackageOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as NodeJS.ErrnoException;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const specifier = /^Cannot find (?:package|module) '([^']+)'/.exec(error.message)?.[1];
  return specifier === undefined ? undefined : packageOf(specifier);
}

function translate(error: unknown, need: PeerNeed): unknown {
  const missing = missingPackageOf(error);
  return missing !== undefined && need.packages.includes(missing)
    ? new MissingPeerDependencyError(need, missing, { cause: error })
    : error;
}

/**
 * Loads a peer package synchronously (through `require`, so the importing module needs no
 * top-level await and stays loadable with `require()` from CommonJS).
 */
export function requirePeer<T>(parentUrl: string, specifier: string, need: PeerNeed): T {
  try {
    return createRequire(parentUrl)(specifier) as T;
  } catch (error) {
    throw translate(error, need);
  }
}

/** Awaits a dynamic import whose module graph uses the peer packages. */
export async function importWithPeers<T>(load: () => Promise<T>, need: PeerNeed): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw translate(error, need);
  }
}

export const NODE_ADAPTER_PEERS: PeerNeed = {
  feature: 'The Node adapter of the Marketing proxy (loyalty-widgets/proxy/node, loyalty-proxy)',
  packages: ['@hono/node-server', 'hono'],
};

export const REDIS_STORE_PEERS: PeerNeed = {
  feature: 'The Redis store of the Marketing proxy (loyalty-widgets/proxy/redis, REDIS_URL)',
  packages: ['redis'],
};

export const SANDBOX_PEERS: PeerNeed = {
  feature: 'The loyalty sandbox (loyalty-widgets/sandbox)',
  packages: ['graphql', 'hono', '@hono/node-server'],
};
