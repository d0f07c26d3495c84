/** The sandbox's options and their defaults (environment variables first, then fixed defaults). */
import type { AppSyncSeed } from './marketing/appsync/records.ts';
import type { MarketingSeed } from './marketing/records.ts';

/** Which Marketing engine the sandbox imitates: our own schema, or AWS AppSync with Amplify-generated resolvers. */
export type SandboxFlavor = 'default' | 'appsync';
export const SANDBOX_FLAVORS: readonly SandboxFlavor[] = ['default', 'appsync'];

export interface SandboxOptions {
  /** Connect's port; default env CONNECT_PORT ?? 4001; 0 picks a free port. */
  connectPort?: number;
  /** Marketing's port; default env MARKETING_PORT ?? 4002; 0 picks a free port. */
  marketingPort?: number;
  /** Host to bind and to put in URLs; default 'localhost' (loopback only). */
  host?: string;
  /**
   * Host names the sandbox answers to besides loopback ones (`localhost`, `*.localhost`, `127.x.x.x`,
   * `[::1]`) and `host`; `'*'` for any. Default env SANDBOX_ALLOWED_HOSTS (comma-separated), else none:
   * a web page that rebinds its own name to 127.0.0.1 (DNS rebinding) reaches nothing.
   */
  allowedHosts?: readonly string[];
  /** The Marketing API key; default env SANDBOX_API_KEY ?? 'sandbox-api-key'. */
  apiKey?: string;
  /** Where apps, users, keys, tokens and sessions persist; default '.sandbox-data' (git-ignored). */
  dataDir?: string;
  /** Access and ID token lifetime in seconds; default env SANDBOX_TOKEN_LIFETIME ?? 3600. */
  tokenLifetimeSeconds?: number;
  /** The demo site's origin; the seeded demo app's redirect URIs are built on it. Default http://localhost:${DEMO_PORT ?? 5173}. */
  demoOrigin?: string;
  /**
   * Replaces the default Marketing records (for tests, e.g. hostile text); missing parts keep the default.
   * The appsync flavour takes its own record shape (start from `appsyncSeed()`).
   */
  seed?: Partial<MarketingSeed> | Partial<AppSyncSeed>;
  /** The Marketing flavour; default env SANDBOX_FLAVOR ?? 'default'. */
  flavor?: SandboxFlavor;
  /** appsync flavour: false refuses introspection (`__schema`, `__type`) as AppSync can. Default true. */
  introspection?: boolean;
  /**
   * appsync flavour: true adds an index on `Campaign.businessAccountId` and its query field
   * `campaignsByBusinessAccountId` (as Amplify's `@index(queryField: …)` does). Default false: only the scan.
   */
  campaignIndex?: boolean;
}

export const DEFAULT_API_KEY = 'sandbox-api-key';

export function resolveHost(options: SandboxOptions): string {
  return options.host ?? 'localhost';
}

export function resolveApiKey(options: SandboxOptions): string {
  const key = options.apiKey ?? process.env.SANDBOX_API_KEY ?? DEFAULT_API_KEY;
  if (!key) throw new Error('The sandbox API key must not be empty');
  return key;
}

export function resolveAllowedHosts(options: SandboxOptions): string[] {
  const listed = options.allowedHosts ?? process.env.SANDBOX_ALLOWED_HOSTS?.split(',') ?? [];
  return [...listed, resolveHost(options)].map((name) => name.trim().toLowerCase()).filter(Boolean);
}

/** Whole seconds written in decimal digits, as a command line or an environment variable gives them. */
export function parseSeconds(text: string, name: string): number {
  const trimmed = text.trim();
  const seconds = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds < 1)
    throw new Error(`${name} must be a positive whole number of seconds, got ${JSON.stringify(text)}`);
  return seconds;
}

export function resolveTokenLifetime(options: SandboxOptions): number {
  const env = process.env.SANDBOX_TOKEN_LIFETIME;
  const lifetime = options.tokenLifetimeSeconds ?? (env ? parseSeconds(env, 'SANDBOX_TOKEN_LIFETIME') : 3600);
  if (!Number.isSafeInteger(lifetime) || lifetime < 1)
    throw new Error(`tokenLifetimeSeconds must be a positive whole number, got ${lifetime}`);
  return lifetime;
}

export function resolveFlavor(options: SandboxOptions): SandboxFlavor {
  const raw = options.flavor ?? (process.env.SANDBOX_FLAVOR || 'default');
  if (!SANDBOX_FLAVORS.includes(raw as SandboxFlavor)) {
    throw new Error(`The sandbox flavor must be one of ${SANDBOX_FLAVORS.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as SandboxFlavor;
}
