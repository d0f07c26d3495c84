/**
 * The demo shop's rewards endpoint, written as a merchant's server would write it (README, "Reward a
 * shopper"): the page posts the two tokens it got at sign-in, `verifyShopper()` checks them with
 * Connect, and only the verified loyalty ID is rewarded. The demo has no rewards interface behind it:
 * it answers with whom it would credit, and the events page logs that.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ShopperVerificationError, verifyShopper, type VerifyShopperOptions } from '../src/proxy/index.ts';

const MAX_BODY_BYTES = 16 * 1024;
/** What the demo would credit per reward. */
const POINTS = 10;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY_BYTES) return undefined;
  }
  try {
    const body: unknown = JSON.parse(text);
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function rewardsEndpoint(connect: VerifyShopperOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST')
      return send(res, 405, { error: { code: 'method_not_allowed', message: 'POST the sign-in tokens as JSON.' } });
    const body = await readJson(req);
    if (!body)
      return send(res, 400, {
        error: { code: 'bad_request', message: 'The body must be JSON: { "idToken", "accessToken" }.' },
      });
    try {
      const shopper = await verifyShopper(
        { idToken: body.idToken as string, accessToken: body.accessToken as string },
        connect,
      );
      // A real shop calls its rewards interface here, with shopper.loyaltyId and nothing the page said.
      send(res, 200, { rewarded: { loyaltyId: shopper.loyaltyId, username: shopper.username }, points: POINTS });
    } catch (error) {
      if (!(error instanceof ShopperVerificationError))
        return send(res, 500, { error: { code: 'internal_error', message: 'The reward failed.' } });
      send(res, error.status, { error: { code: error.code, message: error.message } });
    }
  };
}
