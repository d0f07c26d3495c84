/**
 * Starting and stopping the sandbox's HTTP servers. Port 0 picks a free port, which is read back
 * from the bound socket so tests can run several sandboxes side by side.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';

export interface ListeningServer {
  /** `http://host:port`, with the port actually bound. */
  origin: string;
  close(): Promise<void>;
}

/** Hostnames with a colon are IPv6 literals and need brackets inside a URL. */
export function originFor(host: string, port: number): string {
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return `http://${hostPart}:${port}`;
}

/** Reads a port from an option or an environment variable; a clear error for anything else. */
export function resolvePort(option: number | undefined, envValue: string | undefined, fallback: number, name: string): number {
  const raw = option ?? (envValue !== undefined && envValue !== '' ? Number(envValue) : fallback);
  if (!Number.isInteger(raw) || raw < 0 || raw > 65535) {
    throw new Error(`${name} must be an integer between 0 and 65535, got ${JSON.stringify(option ?? envValue)}`);
  }
  return raw;
}

export async function listen(app: Hono, host: string, port: number): Promise<ListeningServer> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    origin: originFor(host, bound),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections from browsers and fetch() would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
