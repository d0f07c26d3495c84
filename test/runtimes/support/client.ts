/**
 * The shopper's side of the suite: JSON POSTs over real HTTP from a chosen loopback address
 * (127.0.0.x), so each case is its own client address to the proxy's rate limits.
 */
import { request } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cases read whatever shape they assert on
  body: any;
}

export interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The loopback address to connect from; default 127.0.0.1. */
  from?: string;
}

export function call(
  url: string,
  { method = 'POST', headers = {}, body, from = '127.0.0.1' }: Call = {},
): Promise<Reply> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        localAddress: from,
        agent: false,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`No answer from ${url} within 20 s`)));
    req.once('error', reject);
    req.end(payload);
  });
}

/** A coupon request, optionally under an Idempotency-Key. */
export function requestCoupon(
  url: string,
  campaignId: string,
  { key, from }: { key?: string; from?: string } = {},
): Promise<Reply> {
  return call(url, {
    body: { operation: 'requestCoupon', variables: { campaignId } },
    headers: key ? { 'idempotency-key': key } : {},
    from,
  });
}
