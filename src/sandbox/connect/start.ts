/** Starts the Connect sandbox alone (startSandbox starts it beside Marketing). */
import { listen, resolvePort } from '../http.ts';
import { KeyRing } from '../keys.ts';
import { resolveAllowedHosts, resolveHost, resolveTokenLifetime, type SandboxOptions } from '../options.ts';
import { resolveDataDir } from '../store.ts';
import { createConnectApp } from './app.ts';
import { AppRegistry, type AppRegistration, type RegisterAppInput } from './apps.ts';
import { BrowserSessions } from './sessions.ts';
import { AccessTokens } from './tokens.ts';
import { UserDirectory } from './users.ts';
import { oversizedPage } from './web.ts';

export interface RunningConnect {
  /** e.g. http://localhost:4001; also the issuer. */
  connectUrl: string;
  demoApp: AppRegistration;
  registerApp(input: RegisterAppInput): Promise<AppRegistration>;
  /** Rotates in a new signing key (new kid, signs from now on; older keys stay in /jwks). */
  addSigningKey(): Promise<string>;
  close(): Promise<void>;
}

export function resolveDemoOrigin(options: SandboxOptions): string {
  return options.demoOrigin ?? `http://localhost:${process.env.DEMO_PORT || 5173}`;
}

/** Prepares the data folder (first key, seeded users, demo app) without starting a server; the CLI uses it too. */
export async function prepareConnectData(options: SandboxOptions) {
  const dataDir = resolveDataDir(options.dataDir);
  const keys = new KeyRing(dataDir);
  await keys.ensureKey();
  const users = new UserDirectory(dataDir);
  users.ensureSeeded();
  const apps = new AppRegistry(dataDir);
  const demoApp = apps.ensureDemoApp(resolveDemoOrigin(options));
  return { dataDir, keys, users, apps, demoApp };
}

export async function startConnect(options: SandboxOptions = {}): Promise<RunningConnect> {
  const port = resolvePort(options.connectPort, process.env.CONNECT_PORT, 4001, 'connectPort');
  const tokenLifetimeSeconds = resolveTokenLifetime(options);
  const { dataDir, keys, users, apps, demoApp } = await prepareConnectData(options);
  const connect = createConnectApp({
    keys,
    apps,
    users,
    tokens: new AccessTokens(dataDir),
    sessions: new BrowserSessions(dataDir),
    tokenLifetimeSeconds,
  });
  const server = await listen(connect.app, resolveHost(options), port, oversizedPage, resolveAllowedHosts(options));
  connect.setIssuer(server.origin);
  return {
    connectUrl: server.origin,
    demoApp,
    registerApp: async (input) => apps.register(input),
    addSigningKey: () => keys.addKey(),
    close: () => server.close(),
  };
}
