import { merchantSetting } from './merchant.ts';

/** Where the widgets find the merchant's Marketing proxy when no element or page says otherwise. */
const DEFAULT_ENDPOINT = '/api/marketing';

/**
 * Resolves the proxy endpoint for an element: its own `endpoint` attribute wins, then the merchant's
 * page-wide `<meta name="loyalty-endpoint" content="...">` in the head (one in the body is content, not
 * the merchant's setting), then the default `/api/marketing`.
 */
export function resolveEndpoint(own: string | null | undefined): string {
  const trimmed = own?.trim();
  if (trimmed) return trimmed;
  return merchantSetting('loyalty-endpoint') ?? DEFAULT_ENDPOINT;
}
