/** Starts the Marketing sandbox alone (startSandbox starts it beside Connect), in either flavour. */
import type { Hono } from 'hono';
import { listen, resolvePort } from '../http.ts';
import {
  resolveAllowedHosts,
  resolveApiKey,
  resolveFlavor,
  resolveHost,
  type SandboxFlavor,
  type SandboxOptions,
} from '../options.ts';
import { createAppSyncApp } from './appsync/app.ts';
import type { AppSyncSeed } from './appsync/records.ts';
import { AppSyncState } from './appsync/resolvers.ts';
import { appsyncSeed } from './appsync/seed.ts';
import { createMarketingApp } from './app.ts';
import { MarketingState, type MarketingServer, type SandboxStats } from './resolvers.ts';
import type { MarketingSeed } from './records.ts';
import { defaultSeed } from './seed.ts';

export interface RunningMarketing {
  /** The GraphQL endpoint, e.g. http://localhost:4002/graphql. */
  marketingUrl: string;
  /** The server's origin, e.g. http://localhost:4002 (images are served under it). */
  origin: string;
  apiKey: string;
  flavor: SandboxFlavor;
  stats(): SandboxStats;
  resetStats(): void;
  /** The next `count` authenticated GraphQL requests answer 429 (counted in graphqlRequests, not per root field). */
  throttleNext(count: number): void;
  close(): Promise<void>;
}

function createApp(
  options: SandboxOptions,
  apiKey: string,
): { state: MarketingServer; app: Hono; flavor: SandboxFlavor } {
  const flavor = resolveFlavor(options);
  const replaced = structuredClone(options.seed ?? {});
  // The origin is known only once the port is bound; image URLs are built per request after that.
  if (flavor === 'appsync') {
    const state = new AppSyncState({ ...appsyncSeed(), ...(replaced as Partial<AppSyncSeed>) }, '');
    return {
      state,
      app: createAppSyncApp(state, apiKey, {
        introspection: options.introspection ?? true,
        campaignIndex: options.campaignIndex ?? false,
      }),
      flavor,
    };
  }
  const state = new MarketingState({ ...defaultSeed(), ...(replaced as Partial<MarketingSeed>) }, '');
  return { state, app: createMarketingApp(state, apiKey), flavor };
}

export async function startMarketing(options: SandboxOptions = {}): Promise<RunningMarketing> {
  const port = resolvePort(options.marketingPort, process.env.MARKETING_PORT, 4002, 'marketingPort');
  const apiKey = resolveApiKey(options);
  const { state, app, flavor } = createApp(options, apiKey);
  const server = await listen(app, resolveHost(options), port, undefined, resolveAllowedHosts(options));
  state.origin = server.origin;
  return {
    marketingUrl: `${server.origin}/graphql`,
    origin: server.origin,
    apiKey,
    flavor,
    stats: () => state.stats(),
    resetStats: () => state.resetStats(),
    throttleNext: (count) => state.throttleNext(count),
    close: () => server.close(),
  };
}
