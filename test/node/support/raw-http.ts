/**
 * Raw HTTP/1.1 over a socket, for requests a well-behaved client library will not send: bodies that
 * trickle in, lying or missing lengths, hand-written headers.
 */
import { connect } from 'node:net';

export interface RawReply {
  /** Everything the server sent before it closed the connection (or the wait ended). */
  text: string;
  /** The status of the first response line, 0 when none arrived. */
  status: number;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  elapsedMs: number;
}

/**
 * Sends `head` (request line and headers, without the blank line), then each of `bodyParts` every
 * `intervalMs`, and collects the reply until the server closes the connection or `waitMs` passes.
 */
export function rawRequest(
  origin: string,
  head: string,
  bodyParts: readonly string[],
  { intervalMs = 0, waitMs = 5000 }: { intervalMs?: number; waitMs?: number } = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(origin);
  const started = Date.now();
  return new Promise((resolve) => {
    let text = '';
    let closed = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${head}\r\n\r\n`);
      let index = 0;
      const next = () => {
        if (index < bodyParts.length && !socket.destroyed) socket.write(bodyParts[index++]!);
        else if (timer) clearInterval(timer);
      };
      if (intervalMs > 0) timer = setInterval(next, intervalMs);
      else while (index < bodyParts.length) next();
    });
    const finish = () => {
      if (timer) clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ text, status, closed, elapsedMs: Date.now() - started });
    };
    const deadline = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
  });
}
