/**
 * The `loyalty-proxy` CLI's settings, read from the environment and checked all at once, so a
 * misconfigured server says everything that is wrong before it starts, and never starts half-right.
 */
import { normalizeOrigins } from './cors.ts';

export interface ProxyServerConfig {
  upstreamUrl: string;
  apiKey: string;
  allowedOrigins: string[];
  port: number;
  host?: string;
  redisUrl?: string;
  connectUrl?: string;
  requireSignin: boolean;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Cannot start the Marketing proxy:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function urlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function flag(name: string, value: string | undefined, problems: string[]): boolean {
  const normalized = value?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(normalized)) return false;
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  problems.push(`${name} must be true or false (got "${value}").`);
  return false;
}

export function readConfig(env: Record<string, string | undefined>): ProxyServerConfig {
  const problems: string[] = [];
  const upstreamUrl = env.MARKETING_API_URL?.trim() ?? '';
  if (!upstreamUrl) problems.push('MARKETING_API_URL is required: the Marketing GraphQL endpoint (test or production address).');
  else if (!urlWith(upstreamUrl, ['http:', 'https:'])) problems.push(`MARKETING_API_URL must be an http(s) URL (got "${upstreamUrl}").`);

  const apiKey = env.MARKETING_API_KEY ?? '';
  if (!apiKey.trim()) problems.push('MARKETING_API_KEY is required: the key the proxy sends upstream as x-api-key.');

  let allowedOrigins: string[] = [];
  const origins = env.ALLOWED_ORIGINS?.split(',').map((origin) => origin.trim()).filter(Boolean) ?? [];
  try {
    allowedOrigins = [...normalizeOrigins(origins)];
  } catch {
    problems.push(`ALLOWED_ORIGINS must be a comma-separated list of origins like https://shop.example (got "${env.ALLOWED_ORIGINS}").`);
  }

  const portText = env.PORT?.trim() || '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`PORT must be a port number 0-65535 (got "${env.PORT}").`);

  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !urlWith(redisUrl, ['redis:', 'rediss:'])) problems.push('REDIS_URL must be a redis:// or rediss:// URL.');

  const connectUrl = env.CONNECT_URL?.trim() || undefined;
  if (connectUrl && !urlWith(connectUrl, ['http:', 'https:'])) problems.push(`CONNECT_URL must be an http(s) URL (got "${connectUrl}").`);
  const requireSignin = flag('REQUIRE_SIGNIN', env.REQUIRE_SIGNIN, problems);
  if (requireSignin && !connectUrl) problems.push('REQUIRE_SIGNIN needs CONNECT_URL: the Connect authority that checks access tokens.');
  const trustProxy = flag('TRUST_PROXY', env.TRUST_PROXY, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  const host = env.HOST?.trim() || undefined;
  return { upstreamUrl, apiKey, allowedOrigins, port, host, redisUrl, connectUrl, requireSignin, trustProxy };
}
