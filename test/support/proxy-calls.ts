/**
 * What a browser request asks the Marketing proxy: a read without the shopper's sign-in is a GET whose
 * query names the operation and its variables (integers read back as numbers), anything else a POST
 * with them in its JSON body.
 */
import type { Request } from 'playwright-core';

export interface ProxyCall {
  operation: string;
  variables: Record<string, unknown>;
}

/** The call a request makes to a proxy; undefined for any other request. */
export function proxyCall(request: Request): ProxyCall | undefined {
  if (request.method() === 'POST') return (request.postDataJSON() as ProxyCall | null) ?? undefined;
  const { searchParams } = new URL(request.url());
  const operation = searchParams.get('operation');
  if (request.method() !== 'GET' || !operation) return undefined;
  const variables: Record<string, unknown> = {};
  for (const [name, value] of searchParams) {
    if (name !== 'operation') variables[name] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return { operation, variables };
}
