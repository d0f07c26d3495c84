/**
 * The `loyalty-proxy` CLI's settings, read from the environment and checked all at once, so a
 * misconfigured server says everything that is wrong before it starts, and never starts half-right.
 */
import { HTTP_PROTOCOLS, parseUrl } from '../../shared/url.ts';
import { normalizeOrigins } from '../http/cors.ts';

export interface ProxyServerConfig {
  /** Settings that work but are risky (e.g. the key sent over plain http), for the start-up log. */
  warnings: string[];
  upstreamUrl: string;
  apiKey: string;
  allowedOrigins: string[];
  port: number;
  host?: string;
  redisUrl?: string;
  /** `REDIS_CACHE_URL`: a Redis for cached answers only (with `REDIS_URL`). */
  redisCacheUrl?: string;
  connectUrl?: string;
  /** `CONNECT_CLIENT_ID`: the merchant's app id at Connect; required with sign-in. */
  clientId?: string;
  /** `REQUIRE_SIGNIN=true`: every coupon; else the campaigns listed in `REQUIRE_SIGNIN_CAMPAIGNS`. */
  requireSignin: boolean | string[];
  trustProxy: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Cannot start the Marketing proxy:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A URL as it may be printed: any user and password replaced. */
function printable(value: string): string {
  return value.replace(/\/\/[^/?#]*@/, '//[credentials]@');
}

function isLoopback({ hostname }: URL): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}

/** Checks an http(s) setting; returns the problems and, for plain http beyond this machine, a warning. */
function checkHttpUrl(name: string, value: string, what: string, problems: string[], warnings: string[]): void {
  const url = parseUrl(value, HTTP_PROTOCOLS);
  if (!url) {
    problems.push(`${name} must be an http(s) URL (got "${printable(value)}").`);
  } else if (url.username || url.password) {
    problems.push(
      `${name} must not contain a user or password (the proxy would send them on every request and print them).`,
    );
  } else if (url.protocol === 'http:' && !isLoopback(url)) {
    warnings.push(`${name} is plain http: ${what} crosses the network unencrypted. Use https outside a local setup.`);
  }
}

function flag(name: string, value: string | undefined, problems: string[]): boolean {
  const normalized = value?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(normalized)) return false;
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  problems.push(`${name} must be true or false (got "${value}").`);
  return false;
}

/** What each reader below notes as it goes: settings that stop the start, and ones worth a warning. */
interface Notes {
  problems: string[];
  warnings: string[];
}

export function readConfig(env: Record<string, string | undefined>): ProxyServerConfig {
  const notes: Notes = { problems: [], warnings: [] };
  const { problems, warnings } = notes;
  const upstreamUrl = env.MARKETING_API_URL?.trim() ?? '';
  if (!upstreamUrl)
    problems.push('MARKETING_API_URL is required: the Marketing GraphQL endpoint (test or production address).');
  else checkHttpUrl('MARKETING_API_URL', upstreamUrl, 'the API key', problems, warnings);

  const apiKey = env.MARKETING_API_KEY ?? '';
  if (!apiKey.trim()) problems.push('MARKETING_API_KEY is required: the key the proxy sends upstream as x-api-key.');
  const allowedOrigins = readOrigins(env, notes);
  const port = readPort(env, notes);
  const redis = readRedis(env, notes);
  const signin = readSignin(env, notes);
  const trustProxy = flag('TRUST_PROXY', env.TRUST_PROXY, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  const host = env.HOST?.trim() || undefined;
  return { warnings, upstreamUrl, apiKey, allowedOrigins, port, host, ...redis, ...signin, trustProxy };
}

function readOrigins(env: Record<string, string | undefined>, { problems }: Notes): string[] {
  const origins =
    env.ALLOWED_ORIGINS?.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean) ?? [];
  try {
    return [...normalizeOrigins(origins)];
  } catch {
    problems.push(
      `ALLOWED_ORIGINS must be a comma-separated list of origins like https://shop.example (got "${env.ALLOWED_ORIGINS}").`,
    );
    return [];
  }
}

function readPort(env: Record<string, string | undefined>, { problems }: Notes): number {
  const portText = env.PORT?.trim() || '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`PORT must be a port number 0-65535 (got "${env.PORT}").`);
  return port;
}

function readRedis(
  env: Record<string, string | undefined>,
  { problems }: Notes,
): Pick<ProxyServerConfig, 'redisUrl' | 'redisCacheUrl'> {
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !parseUrl(redisUrl, ['redis:', 'rediss:']))
    problems.push('REDIS_URL must be a redis:// or rediss:// URL.');
  const redisCacheUrl = env.REDIS_CACHE_URL?.trim() || undefined;
  if (redisCacheUrl && !parseUrl(redisCacheUrl, ['redis:', 'rediss:']))
    problems.push('REDIS_CACHE_URL must be a redis:// or rediss:// URL.');
  if (redisCacheUrl && !redisUrl) problems.push('REDIS_CACHE_URL needs REDIS_URL (the Redis for claims and limits).');
  return { redisUrl, redisCacheUrl };
}

function readSignin(
  env: Record<string, string | undefined>,
  { problems, warnings }: Notes,
): Pick<ProxyServerConfig, 'connectUrl' | 'clientId' | 'requireSignin'> {
  const connectUrl = env.CONNECT_URL?.trim() || undefined;
  if (connectUrl) checkHttpUrl('CONNECT_URL', connectUrl, "every shopper's access token", problems, warnings);
  const signinCampaigns =
    env.REQUIRE_SIGNIN_CAMPAIGNS?.split(',')
      .map((id) => id.trim())
      .filter(Boolean) ?? [];
  const requireSignin =
    flag('REQUIRE_SIGNIN', env.REQUIRE_SIGNIN, problems) || (signinCampaigns.length > 0 && signinCampaigns);
  if (requireSignin === true && signinCampaigns.length) {
    warnings.push('REQUIRE_SIGNIN=true already covers every campaign: REQUIRE_SIGNIN_CAMPAIGNS is not needed.');
  }
  if (requireSignin && !connectUrl) {
    problems.push(
      `${requireSignin === true ? 'REQUIRE_SIGNIN' : 'REQUIRE_SIGNIN_CAMPAIGNS'} needs CONNECT_URL: the Connect authority that checks access tokens.`,
    );
  }
  const clientId = env.CONNECT_CLIENT_ID?.trim() || undefined;
  if (requireSignin && !clientId) {
    problems.push(
      `${requireSignin === true ? 'REQUIRE_SIGNIN' : 'REQUIRE_SIGNIN_CAMPAIGNS'} needs CONNECT_CLIENT_ID: your app id at Connect (the button's client-id), so that tokens issued to other apps are refused.`,
    );
  }
  return { connectUrl, clientId, requireSignin };
}
