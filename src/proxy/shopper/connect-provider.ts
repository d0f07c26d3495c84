/** Connect's discovery document and signing keys, as the proxy reads them to check ID tokens. */
import { checkDiscovery, ProviderKeys, type CheckedDiscovery } from '../../connect/id-token.ts';
import { withoutTrailingSlash } from '../../shared/url.ts';
import { readTextLimited } from '../upstream/transport.ts';
import { unavailable } from './verification-error.ts';

const DISCOVERY_TTL_MS = 60 * 60_000;
const UNKNOWN_KEY_COOLDOWN_MS = 30_000;
const MAX_DISCOVERY_BYTES = 256 * 1024;
/** A key set holds a few keys of under 2 kB each. */
const MAX_JWKS_BYTES = 256 * 1024;

export interface ConnectSettings {
  connectUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

export class ConnectProvider {
  private discovery: { value: Promise<{ checked: CheckedDiscovery; keys: ProviderKeys }>; at: number } | undefined;

  constructor(private readonly settings: ConnectSettings) {}

  /** Discovery (checked against the configured authority) and the keys, cached for an hour; a failure is not kept. */
  provider(): Promise<{ checked: CheckedDiscovery; keys: ProviderKeys }> {
    const current = this.discovery;
    if (current && Date.now() - current.at < DISCOVERY_TTL_MS) return current.value;
    const value = this.readDiscovery(current?.value);
    const entry = { value, at: Date.now() };
    this.discovery = entry;
    value.catch(() => {
      if (this.discovery === entry) this.discovery = undefined;
    });
    return value;
  }

  private async readDiscovery(previous?: Promise<{ checked: CheckedDiscovery; keys: ProviderKeys }>) {
    const { connectUrl, timeoutMs } = this.settings;
    const url = `${withoutTrailingSlash(connectUrl)}/.well-known/openid-configuration`;
    let metadata: unknown;
    try {
      const response = await this.settings.fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      metadata = response.ok ? JSON.parse(await readTextLimited(response, MAX_DISCOVERY_BYTES)) : undefined;
      if (!response.ok) await response.body?.cancel().catch(() => undefined);
    } catch {
      metadata = undefined;
    }
    if (!metadata || typeof metadata !== 'object')
      throw unavailable(`Connect discovery could not be read from ${url}.`);
    const checked = checkDiscovery(metadata as Record<string, unknown>, connectUrl);
    const before = await previous?.catch(() => undefined);
    const keys =
      before && before.checked.jwks_uri === checked.jwks_uri
        ? before.keys
        : new ProviderKeys(checked.jwks_uri, {
            fetch: this.settings.fetch,
            timeoutMs,
            unknownKeyCooldownMs: UNKNOWN_KEY_COOLDOWN_MS,
            maxAgeMs: DISCOVERY_TTL_MS,
            redirect: 'error',
            readText: (response) => readTextLimited(response, MAX_JWKS_BYTES),
          });
    return { checked, keys };
  }
}
