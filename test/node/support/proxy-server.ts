/**
 * Shared setup for the Marketing proxy tests: the real Marketing sandbox as upstream, the proxy on a
 * real HTTP server through its Node adapter (access log captured), and a JSON POST helper.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMarketing, type RunningMarketing } from '../../../src/sandbox/index.ts';
import { createMarketingProxy, type AccessLogEntry, type MarketingProxyOptions } from '../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../src/proxy/node.ts';
import { temporaryDataDir } from './connect.ts';

/** A key that is easy to search for in everything the proxy sends back or logs. */
export const TEST_API_KEY = 'test-marketing-key-5f1c9a7e';

export interface Upstream extends RunningMarketing {
  dispose(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const data = await temporaryDataDir();
  const marketing = await startMarketing({ marketingPort: 0, dataDir: data.dir, apiKey: TEST_API_KEY });
  return {
    ...marketing,
    async dispose() {
      await marketing.close();
      await data.remove();
    },
  };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface ProxyUnderTest {
  /** Where to POST (the server's root; the handler does not route on the path). */
  url: string;
  origin: string;
  logs: AccessLogEntry[];
  close(): Promise<void>;
}

export async function serveProxy(
  options: Partial<MarketingProxyOptions> & { upstreamUrl: string },
): Promise<ProxyUnderTest> {
  const logs: AccessLogEntry[] = [];
  const handler = createMarketingProxy({ apiKey: TEST_API_KEY, logger: (entry) => logs.push(entry), ...options });
  const server = createServer(toNodeHandler(handler));
  const origin = await listen(server);
  return { url: `${origin}/api/marketing`, origin, logs, close: () => closeServer(server) };
}

export interface JsonReply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever shape they assert on
  body: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A hand-made upstream for failure cases the sandbox does not have (slow, broken, echoing). */
export async function startFakeUpstream(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handle);
  const origin = await listen(server);
  return { url: `${origin}/graphql`, close: () => closeServer(server) };
}
