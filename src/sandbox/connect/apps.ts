/**
 * Registered client apps (`apps.json`): name and redirect URIs in, `app_id` and `app_secret` out.
 * The seeded demo app has the fixed id `loyalty-demo`; its redirect URIs follow the demo origin.
 */
import { randomBytes } from 'node:crypto';
import { HTTP_PROTOCOLS, parseUrl } from '../../shared/url.ts';
import { JsonFile } from '../store.ts';

export interface AppRegistration {
  app_id: string;
  app_secret: string;
  name: string;
  redirect_uris: string[];
}

export interface RegisterAppInput {
  name: string;
  redirectUris: string[];
}

interface AppFile {
  apps: AppRegistration[];
}

export const DEMO_APP_ID = 'loyalty-demo';
export const DEMO_APP_NAME = 'Loyalty widgets demo';
const DEMO_PAGES = ['', 'index.html', 'callback.html', 'cms.html', 'theming.html', 'events.html'];
const MAX_REDIRECT_URIS = 20;

export function demoRedirectUris(demoOrigin: string): string[] {
  const origin = URL.canParse(demoOrigin) ? new URL(demoOrigin).origin : 'null';
  if (origin === 'null')
    throw new Error(
      `demoOrigin must be an http(s) origin such as http://localhost:5173, got ${JSON.stringify(demoOrigin)}`,
    );
  return DEMO_PAGES.map((page) => `${origin}/${page}`);
}

/** Throws an error that says what is wrong with the input; returns the cleaned input. */
export function checkRegistration(input: RegisterAppInput): RegisterAppInput {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw new Error('An app needs a name');
  if (name.length > 100) throw new Error('An app name is at most 100 characters');
  if (!Array.isArray(input.redirectUris) || input.redirectUris.length === 0)
    throw new Error('An app needs at least one redirect URI');
  if (input.redirectUris.length > MAX_REDIRECT_URIS)
    throw new Error(`An app has at most ${MAX_REDIRECT_URIS} redirect URIs`);
  for (const uri of input.redirectUris) {
    if (typeof uri !== 'string') throw new Error(`Redirect URI ${JSON.stringify(uri)} is not a string`);
    if (!URL.canParse(uri)) throw new Error(`Redirect URI ${JSON.stringify(uri)} is not an absolute URL`);
    // URL parsing drops tabs and newlines silently, but the stored string is what goes into a Location header.
    if (/[\x00-\x20\x7f]/.test(uri))
      throw new Error(`Redirect URI ${JSON.stringify(uri)} must not contain spaces or control characters`);
    const url = parseUrl(uri, HTTP_PROTOCOLS);
    if (!url) throw new Error(`Redirect URI ${JSON.stringify(uri)} must use http or https`);
    // The response travels in the fragment, so a registered URI cannot carry one (RFC 6749 §3.1.2).
    if (uri.includes('#')) throw new Error(`Redirect URI ${JSON.stringify(uri)} must not contain a fragment`);
    if (url.username || url.password)
      throw new Error(`Redirect URI ${JSON.stringify(uri)} must not contain credentials`);
  }
  return { name, redirectUris: [...new Set(input.redirectUris)] };
}

export class AppRegistry {
  private readonly file: JsonFile<AppFile>;

  constructor(dataDir: string) {
    this.file = JsonFile.in<AppFile>(dataDir, 'apps.json', 0o600);
  }

  /** Read from disk each time (cached by mtime), so an app registered by the CLI works at once. */
  find(appId: string): AppRegistration | undefined {
    return this.file.read()?.apps.find((app) => app.app_id === appId);
  }

  register(input: RegisterAppInput): AppRegistration {
    const { name, redirectUris } = checkRegistration(input);
    const app: AppRegistration = {
      app_id: `app_${randomBytes(8).toString('hex')}`,
      app_secret: randomBytes(32).toString('base64url'),
      name,
      redirect_uris: redirectUris,
    };
    this.file.update(
      () => ({ apps: [] }),
      (file) => ({ apps: [...file.apps, app] }),
    );
    return app;
  }

  /** Creates the demo app, or points its redirect URIs at the current demo origin; its secret is kept. */
  ensureDemoApp(demoOrigin: string): AppRegistration {
    const redirect_uris = demoRedirectUris(demoOrigin);
    let demo: AppRegistration | undefined;
    this.file.update(
      () => ({ apps: [] }),
      (file) => {
        const existing = file.apps.find((app) => app.app_id === DEMO_APP_ID);
        demo = {
          app_id: DEMO_APP_ID,
          app_secret: existing?.app_secret ?? randomBytes(32).toString('base64url'),
          name: DEMO_APP_NAME,
          redirect_uris,
        };
        return { apps: [demo, ...file.apps.filter((app) => app.app_id !== DEMO_APP_ID)] };
      },
    );
    return demo!;
  }
}
