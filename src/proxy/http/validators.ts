/**
 * Validators for a read sent as GET: the answer's `ETag` (a digest of its body), and `304 Not
 * Modified` for a request whose `If-None-Match` names it, so a browser or a CDN revalidating its copy
 * is sent no body. A POST is never cached by anyone, so it gets neither.
 */
import { sha256Hex } from '../shared/digest.ts';
import { jsonResponse, PROXY_MARKER } from '../shared/errors.ts';

/** A read's 200 answer: with its ETag when it came as GET, or 304 with the same headers when the client has it. */
export async function readAnswer(request: Request, body: string, headers: Record<string, string>): Promise<Response> {
  if (request.method !== 'GET') return jsonResponse(200, body, headers);
  const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
  const known = request.headers
    .get('if-none-match')
    ?.split(',')
    .some((tag) => [etag, `W/${etag}`, '*'].includes(tag.trim()));
  if (known) return new Response(null, { status: 304, headers: { ...PROXY_MARKER, ...headers, etag } });
  return jsonResponse(200, body, { ...headers, etag });
}
