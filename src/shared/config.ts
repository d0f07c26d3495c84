/** Where the widgets find the merchant's Marketing proxy when no element or page says otherwise. */
const DEFAULT_ENDPOINT = '/api/marketing';

/**
 * Resolves the proxy endpoint for an element: its own `endpoint` attribute wins, then a page-wide
 * `<meta name="loyalty-endpoint" content="...">`, then the default `/api/marketing`.
 */
export function resolveEndpoint(own: string | null | undefined, doc: Document = document): string {
  const trimmed = own?.trim();
  if (trimmed) return trimmed;
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="loyalty-endpoint"]')?.content.trim();
  return meta || DEFAULT_ENDPOINT;
}
