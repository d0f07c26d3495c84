/** The types of options.mjs, for the hosts TypeScript checks. */
export interface HostProxyOptions {
  upstreamUrl: string;
  apiKey: string;
  allowedOrigins: string[];
  rateLimits: { perAddress: { limit: number; windowSeconds: number }; perShopper: false };
  timeoutMs: number;
  cache: { ttlSeconds: number; staleWhileRevalidateSeconds: number };
}

export function proxyOptions(env: Record<string, string | undefined>): HostProxyOptions;
