/**
 * First pages asked for early: the script tag requests an element's first page of data as soon as it
 * sees the element, while the element's code is still on its way, and the element's own identical
 * request (same URL, no credentials) takes that answer instead of asking again. An answer not taken
 * is dropped soon after it arrives, so a later request reads fresh data. Reads without credentials go
 * as GET to one URL per read (`plainRead`), so the browser hands either request a response the page
 * preloaded (`<link rel="preload" as="fetch" crossorigin href="…">`) or one a CDN kept.
 */
import { HTTP_PROTOCOLS, parseUrl } from '../shared/url.ts';
import { pageRegistry } from '../shared/page-registry.ts';
import { pageHead, queryAll } from '../shared/page.ts';

/** An operation's variables, as the elements and clients pass them (empty ones are dropped). */
export type Variables = Record<string, string | number | null | undefined>;

/** How long an answer that arrived waits for its element before it is dropped. */
const KEPT_MS = 10_000;

/**
 * Early answers by endpoint + body, each taken once by each element it was asked for: kept on the
 * page, since the script tag that asks and the client that takes are separate copies.
 */
const { early } = pageRegistry();

/**
 * An endpoint as the page's clients use it: an http(s) URL, a relative one resolved against the page's
 * own address (not against a `<base>`, which page content may have added); undefined for anything else
 * (`javascript:`, `data:` or `blob:` would fail later as a mysterious network error).
 */
export function endpointUrl(endpoint: string): URL | undefined {
  return parseUrl(endpoint, HTTP_PROTOCOLS, globalThis.location?.href);
}

/** Drops empty variables and sorts names, so equal requests get equal keys and bodies. */
export function canonical(variables: Variables): Record<string, string | number> {
  const result: Record<string, string | number> = {};
  for (const name of Object.keys(variables).sort()) {
    const value = variables[name];
    if (value !== undefined && value !== null && value !== '') result[name] = value;
  }
  return result;
}

/** The body the proxy is sent for an operation: `{ operation, variables }`, variables canonical. */
export function requestBody(operation: string, variables: Variables): string {
  return JSON.stringify({ operation, variables: canonical(variables) });
}

/** Sends a request to the proxy as the Marketing client does; `headers` are added to the JSON ones. */
export function post(endpoint: string, body: string, signal?: AbortSignal, headers: Record<string, string> = {}) {
  // The proxy never redirects: a redirect (an open one on a trusted origin, say) would carry the
  // shopper's tokens and the claim's key to wherever it points.
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body,
    signal,
    redirect: 'error',
  });
}

/** A read without credentials: what tells it from any other (`key`), and how it is sent. */
export interface PlainRead {
  key: string;
  send(signal?: AbortSignal): Promise<Response>;
}

/**
 * A read without credentials, sent as GET to the endpoint with `operation` and then each variable in
 * name order (the URL a preload link in the page's head writes), with no header of its own: a preload
 * link's request has none, and the browser hands its response only to a request like it. An endpoint
 * with a query of its own keeps the POST, since the proxy would read that query as variables, and so
 * does a proxy older than its GET reads (it answers 405).
 */
export function plainRead(endpoint: string, operation: string, variables: Variables): PlainRead {
  const url = new URL(endpoint);
  const body = requestBody(operation, variables);
  const send = (signal?: AbortSignal) => post(endpoint, body, signal);
  if (url.search) return { key: JSON.stringify([endpoint, body]), send };
  url.searchParams.append('operation', operation);
  for (const [name, value] of Object.entries(canonical(variables))) url.searchParams.append(name, String(value));
  return {
    key: url.href,
    send: async (signal) => {
      const response = await fetch(url.href, { signal, redirect: 'error' });
      return response.status === 405 ? send(signal) : response;
    },
  };
}

/** A read's key (`PlainRead.key`) at the endpoint; undefined for an endpoint the clients refuse. */
export function readKey(endpoint: string, operation: string, variables: Variables): string | undefined {
  const url = endpointUrl(endpoint);
  return url && plainRead(url.href, operation, variables).key;
}

/**
 * Requests a read without credentials now, for `takers` elements that will ask for exactly it (none,
 * for a first page printed before its element's code runs: src/first-page.ts); one request for every
 * element that asks for the same thing. Returns the read's key.
 */
export function prefetchRead(
  endpoint: string,
  operation: string,
  variables: Variables,
  takers = 1,
): string | undefined {
  const url = endpointUrl(endpoint);
  if (!url) return undefined;
  const read = plainRead(url.href, operation, variables);
  const { key } = read;
  const asked = early.get(key);
  if (asked) {
    asked.takers += takers;
    return key;
  }
  const entry = { answer: read.send(), takers };
  early.set(key, entry);
  const drop = (): void => {
    setTimeout(() => {
      if (early.get(key) === entry) early.delete(key);
    }, KEPT_MS);
  };
  entry.answer.then(drop, drop);
  return key;
}

/**
 * Whether the page's head preloads this read (`<link rel="preload" as="fetch" crossorigin href="…">`,
 * the README's line): the merchant's own. A link the body holds is page content, and is not read.
 */
export function preloadedRead(key: string): boolean {
  const head = pageHead();
  return !!head && [...queryAll<HTMLLinkElement>(head, 'link[rel~="preload" i]')].some((link) => link.href === key);
}

/**
 * Hands over an answer the server printed in the page (a mount's first page, src/proxy/render/) as the
 * early answer to this read, for `takers` elements: they take it as they take one asked for early,
 * and check it as they check any answer. No request is made.
 */
export function offerAnswer(endpoint: string, operation: string, variables: Variables, text: string): void {
  const url = endpointUrl(endpoint);
  if (!url) return;
  const { key } = plainRead(url.href, operation, variables);
  const answer = Promise.resolve(
    new Response(text, { headers: { 'content-type': 'application/json', 'loyalty-proxy': '1' } }),
  );
  const offered = early.get(key);
  early.set(key, { answer, takers: (offered?.takers ?? 0) + 1 });
}

/** A look at the early answer to this read, which leaves it to the elements it was asked for. */
export function peekPrefetched(key: string): Promise<Response> | undefined {
  return early.get(key)?.answer.then((response) => response.clone());
}

/**
 * The early answer to this exact read (its `PlainRead.key`), once for each element it was asked for: two
 * elements that need the same page share one request, whenever each asks for it. Undefined when none
 * is left.
 */
export function takePrefetched(key: string): Promise<Response> | undefined {
  const entry = early.get(key);
  if (!entry) return undefined;
  if (--entry.takers <= 0) early.delete(key);
  // Each taker reads a body of its own.
  return entry.answer.then((response) => response.clone());
}
