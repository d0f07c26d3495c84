/**
 * Starting and stopping the sandbox's HTTP servers. Port 0 picks a free port, which is read back
 * from the bound socket so tests can run several sandboxes side by side.
 */
import type { AddressInfo, Socket } from 'node:net';
import { STATUS_CODES, type Server } from 'node:http';
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
export function resolvePort(
  option: number | undefined,
  envValue: string | undefined,
  fallback: number,
  name: string,
): number {
  const raw = option ?? (envValue !== undefined && envValue !== '' ? Number(envValue) : fallback);
  if (!Number.isInteger(raw) || raw < 0 || raw > 65535) {
    throw new Error(`${name} must be an integer between 0 and 65535, got ${JSON.stringify(option ?? envValue)}`);
  }
  return raw;
}

/** What to answer a request Node refuses before the app sees it: its status and an HTML page. */
export type OversizedPage = (status: 414 | 431) => string;

const defaultOversizedPage: OversizedPage = (status) =>
  `<!doctype html><meta charset="utf-8"><title>${STATUS_CODES[status]}</title><h1>${STATUS_CODES[status]}</h1><p>The request is larger than this server accepts.</p>`;

/**
 * Node refuses a request line or headers over its limit (16 KiB) before any app code runs, and by
 * default answers with a bare status. Here the caller gets a page that says what happened: 414 when
 * the address alone is too long (e.g. a huge state in a sign-in link), 431 for the headers.
 */
function answerClientErrors(server: Server, page: OversizedPage): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return;
    if (error.code !== 'HPE_HEADER_OVERFLOW') {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const firstLineEnd = error.rawPacket?.indexOf('\r\n') ?? -1;
    const status = firstLineEnd === -1 || firstLineEnd > 8192 ? 414 : 431;
    const body = Buffer.from(page(status));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n` +
        `Content-Security-Policy: default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** The name in a Host header, without port and brackets, lower case. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') >>> 0);
  const colon = value.lastIndexOf(':');
  return colon >= 0 && value.indexOf(':') === colon ? value.slice(0, colon) : value;
}

/**
 * Whether a request's Host names this machine (or a name the developer allowed). Browsers send the
 * page's own host name, so a web page that points its name at 127.0.0.1 (DNS rebinding) is refused.
 */
export function hostAllowed(header: string | null | undefined, allowed: readonly string[]): boolean {
  if (header === null || header === undefined) return true; // not a browser: browsers always send Host
  const name = hostName(header);
  if (allowed.includes('*') || allowed.map((entry) => hostName(entry)).includes(name)) return true;
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

export async function listen(
  app: Hono,
  host: string,
  port: number,
  oversizedPage: OversizedPage = defaultOversizedPage,
  allowedHosts: readonly string[] = [host],
): Promise<ListeningServer> {
  const fetch = (request: Request, env?: unknown) =>
    hostAllowed(request.headers.get('host'), allowedHosts)
      ? app.fetch(request, env)
      : new Response('This sandbox answers only to localhost. Allow other host names with SANDBOX_ALLOWED_HOSTS.\n', {
          status: 403,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        });
  const server = createAdaptorServer({ fetch, hostname: host }) as Server;
  answerClientErrors(server, oversizedPage);
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
