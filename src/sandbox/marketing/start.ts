/** Starts the Marketing sandbox alone (startSandbox starts it beside Connect). */
import { listen, resolvePort } from '../http.ts';
import { resolveAllowedHosts, resolveApiKey, resolveHost, type SandboxOptions } from '../options.ts';
import { createMarketingApp } from './app.ts';
import { MarketingState, type SandboxStats } from './resolvers.ts';
import { defaultSeed } from './seed.ts';

export interface RunningMarketing {
  /** The GraphQL endpoint, e.g. http://localhost:4002/graphql. */
  marketingUrl: string;
  /** The server's origin, e.g. http://localhost:4002 (images are served under it). */
  origin: string;
  apiKey: string;
  stats(): SandboxStats;
  resetStats(): void;
  close(): Promise<void>;
}

export async function startMarketing(options: SandboxOptions = {}): Promise<RunningMarketing> {
  const port = resolvePort(options.marketingPort, process.env.MARKETING_PORT, 4002, 'marketingPort');
  const apiKey = resolveApiKey(options);
  const seed = { ...defaultSeed(), ...structuredClone(options.seed ?? {}) };
  // The origin is known only once the port is bound; image URLs are built per request after that.
  const state = new MarketingState(seed, '');
  const server = await listen(createMarketingApp(state, apiKey), resolveHost(options), port, undefined, resolveAllowedHosts(options));
  state.origin = server.origin;
  return {
    marketingUrl: `${server.origin}/graphql`,
    origin: server.origin,
    apiKey,
    stats: () => state.stats(),
    resetStats: () => state.resetStats(),
    close: () => server.close(),
  };
}
