/**
 * How a request to the merchant's Marketing proxy travels, for the elements' reads and for
 * `MarketingClient` (./client.ts) alike: the endpoint's check, one request for every caller on the page
 * that asks for the same thing at once, and the answer read into its `data` or the `MarketingError` it
 * stands for. The elements read through `read()` alone: a page showing campaigns carries nothing of the
 * shopper's credentials nor of the claim, which come with the claim's own code.
 */
import { MarketingError } from './errors.ts';
import { endpointUrl, plainRead, takePrefetched, type Variables } from './prefetch.ts';
import { readAnswer, type Json } from './responses.ts';

interface SharedRequest {
  promise: Promise<unknown>;
  controller: AbortController;
  /** Callers still waiting that could abort; when it drops to zero the request is aborted. */
  waiting: number;
}

/** Requests in flight on this page, by what tells them apart (endpoint, body, credentials). */
const inFlight = new Map<string, SharedRequest>();

/** The endpoint's absolute URL; a `config` error for anything but an http or https address. */
export function checkedEndpoint(endpoint: string): string {
  const url = endpointUrl(endpoint);
  if (!url) {
    throw new MarketingError(
      'config',
      0,
      `The Marketing endpoint "${endpoint}" is not a valid URL: it must be an http or https address.`,
    );
  }
  return url.href;
}

/**
 * Runs `start` unless a request with this `key` is in flight already, and waits for it on behalf of
 * one caller, whose `signal` cancels only its own wait (the request is aborted once every caller that
 * could abort has). An undefined key is never shared.
 */
export function shared<T>(
  key: string | undefined,
  start: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  let entry = key === undefined ? undefined : inFlight.get(key);
  if (!entry) {
    const controller = new AbortController();
    const started: SharedRequest = { controller, waiting: 0, promise: start(controller.signal) };
    entry = started;
    if (key !== undefined) {
      inFlight.set(key, started);
      const forget = (): void => {
        if (inFlight.get(key) === started) inFlight.delete(key);
      };
      started.promise.then(forget, forget);
    }
  }
  return join(entry, signal, key) as Promise<T>;
}

function join(shared: SharedRequest, signal: AbortSignal | undefined, key: string | undefined): Promise<unknown> {
  if (!signal) {
    // A caller that cannot abort keeps the request alive for good.
    shared.waiting = Number.POSITIVE_INFINITY;
    return shared.promise;
  }
  shared.waiting++;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason);
      if (--shared.waiting === 0) {
        shared.controller.abort(signal.reason);
        if (key !== undefined && inFlight.get(key) === shared) inFlight.delete(key);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    shared.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The `data` of the answer `send` brings: a `network` error when none came (or its body could not be
 * read), the request's abort as it is, and what `check` refuses of the response before it is read.
 */
export async function answerData(
  send: () => Promise<Response>,
  signal: AbortSignal,
  check?: (response: Response) => void,
): Promise<Json> {
  let response: Response;
  let payload: unknown;
  try {
    response = await send();
    const raw = await response.text();
    try {
      payload = JSON.parse(raw);
    } catch {
      payload = undefined;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new MarketingError(
      'network',
      0,
      `The loyalty service could not be reached (${error instanceof Error ? error.message : 'network error'}).`,
    );
  }
  check?.(response);
  return readAnswer(response, payload);
}

/**
 * A read without credentials, as the elements make them: a GET the script tag may have sent already or
 * the page preloaded (./prefetch.ts), shared with every caller on the page asking for the same one,
 * its answer's `data` read by `parse`.
 */
export function read<T>(
  endpoint: string,
  operation: string,
  variables: Variables,
  parse: (data: Json) => T,
  signal?: AbortSignal,
): Promise<T> {
  let url: string;
  try {
    url = checkedEndpoint(endpoint);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  const request = plainRead(url, operation, variables);
  return shared(
    request.key,
    (signal) => answerData(() => takePrefetched(request.key) ?? request.send(signal), signal).then(parse),
    signal,
  );
}
