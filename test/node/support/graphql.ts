/** A tiny GraphQL-over-HTTP client for the sandbox tests: real fetch, the status and body as they came. */
export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: { data?: T | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

export async function postGraphQL<T = Record<string, unknown>>(
  url: string,
  apiKey: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
): Promise<GraphQLResponse<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined) headers['x-api-key'] = apiKey;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as GraphQLResponse<T>['body'],
  };
}

/** The `extensions.code` of every error in a response. */
export function errorCodes(response: GraphQLResponse<unknown>): Array<string | undefined> {
  return (response.body.errors ?? []).map((error) => error.extensions?.code);
}
