/**
 * Reading a failed upstream request (no answer, no timeout) in any runtime: did the request
 * provably never reach the upstream? Only then may a coupon request's Idempotency-Key be freed.
 *
 * Every runtime says it differently: Node names the cause with a code (`ECONNREFUSED`, `ENOTFOUND`,
 * `EAI_AGAIN`) under fetch's `TypeError`, Bun with the same codes on the error itself, Deno in words
 * under a `cause` (`client error (Connect): tcp connect error: Connection refused`, `dns error`).
 * workerd says `Network connection lost.` for a refused connection and for one dropped after the
 * request was sent alike: there the proxy asks once more (see `callUpstream`).
 */

/** How deep to follow `cause` (fetch wraps the socket error once or twice). */
const MAX_DEPTH = 5;
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ConnectionRefused']);
/** Deno's and others' words for a connection that was never opened. */
const CONNECT_WORDS = /connection refused|client error \(Connect\)|dns error|failed to lookup address|getaddrinfo/i;

type Described = Error & { code?: unknown };

/**
 * `true` when the runtime says the connection was never opened (refused, or the name did not
 * resolve); `false` when it says something else happened (a reset, a closed connection, a TLS
 * failure); `undefined` when its error says nothing either way.
 */
export function connectionNeverOpened(error: unknown): boolean | undefined {
  let saidSomething = false;
  let cause: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && cause instanceof Error; depth += 1) {
    // Node tries each address of a name in turn: never opened only if no attempt was.
    if (cause instanceof AggregateError && cause.errors.length > 0)
      return cause.errors.every((each) => connectionNeverOpened(each) === true);
    const { code, message } = cause as Described;
    if ((typeof code === 'string' && CONNECT_CODES.has(code)) || CONNECT_WORDS.test(message)) return true;
    if (typeof code === 'string' || cause.cause !== undefined) saidSomething = true;
    cause = cause.cause;
  }
  return saidSomething ? false : undefined;
}

/** One line for the access log: each error of the chain as `Name: message (code)`. */
export function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let cause: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && cause !== undefined; depth += 1) {
    if (!(cause instanceof Error)) {
      parts.push(String(cause));
      break;
    }
    const { code } = cause as Described;
    parts.push(
      `${cause.name}: ${cause.message}${typeof code === 'string' && !cause.message.includes(code) ? ` (${code})` : ''}`,
    );
    cause = cause.cause;
  }
  return parts.join(' ← ');
}
