/**
 * The proxy's one error shape, `{ "error": { "code", "message" } }`, and the helpers that build JSON
 * responses. Every message that may carry upstream text goes through `scrub()` first, so the API key
 * can never leak through an error, even if the upstream echoes it.
 */

export class ProxyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ProxyError';
  }
}

export const NO_STORE = 'no-store';

/**
 * Sent on every answer of the proxy, success or error: a browser keeps a coupon only from an answer
 * that carries it, so a same-origin file that a server answers 200 to a POST (an uploaded `.json`)
 * cannot plant a code. The WordPress plugin's PHP proxy sends the same header.
 */
export const PROXY_MARKER = { 'loyalty-proxy': '1' } as const;

export function jsonResponse(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      ...PROXY_MARKER,
      ...headers,
    },
  });
}

export function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

export function errorResponse(error: ProxyError, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.status, errorBody(error.code, error.message), {
    'cache-control': NO_STORE,
    ...headers,
    ...error.headers,
  });
}

const MAX_MESSAGE_LENGTH = 500;

/** Removes every occurrence of each secret from a text meant for the outside, and bounds its length. */
export function scrub(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret) clean = clean.split(secret).join('[redacted]');
  }
  return clean.length > MAX_MESSAGE_LENGTH ? `${clean.slice(0, MAX_MESSAGE_LENGTH)}…` : clean;
}
