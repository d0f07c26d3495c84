/**
 * oidc-client-ts's UserManager taught the implicit flow (`response_type=id_token token`) that the
 * spec's Connect speaks. We keep what the library does well (the popup window and its
 * origin-checked message channel, single-use state storage, discovery metadata, the User object and
 * its events) and override the two protected steps it leaves to subclasses:
 * - `_signinStart` builds the request exactly as the spec asks, nothing more;
 * - `_signinEnd` reads the fragment response and runs every relying-party check (id-token.ts)
 *   before any token is used. The access token is sent to `/me` only after all checks pass.
 * oidc-client-ts is pinned to ~3.5.0; test/browser/signin/internals.test.ts fails if these
 * internals change.
 */
import {
  SigninState,
  User,
  UserManager,
  WebStorageStateStore,
  InMemoryWebStorage,
  type CreateSigninRequestArgs,
  type IWindow,
  type NavigateResponse,
  type OidcMetadata,
  type UserProfile,
} from 'oidc-client-ts';
import { SignInError } from './errors.ts';
import {
  checkDiscovery,
  ProviderKeys,
  randomToken,
  sha256Base64url,
  verifyIdToken,
  type CheckedDiscovery,
} from './id-token.ts';
import { STATE_STORAGE_PREFIX, type ConnectOptions } from './options.ts';
import { fetchProfile, type ConnectProfile } from './profile.ts';
import { session } from './session.ts';
import { pageStorage } from '../shared/page-storage.ts';

const profiles = new WeakMap<User, ConnectProfile>();

/** What to ask for after a sign-out, best first: a fresh login, else the account chooser. */
const REAUTHENTICATION_PROMPTS = ['login', 'select_account'] as const;

/** The `/me` profile read during the sign-in that produced this user, if any. */
export function profileOf(user: User): ConnectProfile | null {
  return profiles.get(user) ?? null;
}

export class ConnectUserManager extends UserManager {
  readonly connect: ConnectOptions;

  constructor(options: ConnectOptions) {
    super({
      authority: options.authority,
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      popup_redirect_uri: options.redirectUri,
      scope: options.scope,
      response_type: 'id_token token',
      response_mode: 'fragment',
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
      filterProtocolClaims: false,
      staleStateAgeInSeconds: 15 * 60,
      // The page-wide session (session.ts) persists the signed-in user; oidc-client-ts keeps it in memory only.
      userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      // sessionStorage survives the redirect fallback and dies with the tab; where the browser refuses
      // it (a frame of another site), memory keeps a popup sign-in's request for the page's life.
      stateStore: new WebStorageStateStore({ prefix: STATE_STORAGE_PREFIX, store: pageStorage('session') }),
    });
    this.connect = options;
  }

  /** Discovery, with the issuer it must announce and the addresses we will use, checked. */
  private async discovery(): Promise<CheckedDiscovery & { authorization_endpoint: string; prompts: string[] }> {
    let metadata: Partial<OidcMetadata>;
    try {
      metadata = await this.metadataService.getMetadata();
    } catch (error) {
      throw new SignInError('network', `Connect discovery could not be read from ${this.settings.metadataUrl}.`, {
        cause: error,
      });
    }
    const checked = checkDiscovery(metadata as Record<string, unknown>, this.connect.authority);
    const { authorization_endpoint } = checked;
    if (!authorization_endpoint)
      throw new SignInError('config', 'Connect discovery lacks a usable authorization_endpoint.');
    const announced: unknown = (metadata as Record<string, unknown>).prompt_values_supported;
    const prompts = Array.isArray(announced) ? announced.filter((value) => typeof value === 'string') : [];
    return { ...checked, authorization_endpoint, prompts };
  }

  /**
   * Builds the implicit request: client_id, response_type, nonce (hash of a kept secret), scope,
   * redirect_uri, state; and, for the first sign-in after an explicit sign-out, the `prompt` that makes
   * the next person at a shared computer log in (or choose an account) rather than continue as the
   * previous shopper. The spec's Connect takes no other parameter, so `prompt` is sent only when the
   * provider's discovery lists the value in `prompt_values_supported`.
   */
  protected override async _signinStart(args: CreateSigninRequestArgs, handle: IWindow): Promise<NavigateResponse> {
    try {
      const { authorization_endpoint, prompts } = await this.discovery();
      const nonceSecret = randomToken();
      const state = await SigninState.create({
        id: randomToken(),
        authority: this.connect.authority,
        client_id: this.connect.clientId,
        redirect_uri: this.connect.redirectUri,
        scope: this.connect.scope,
        response_mode: 'fragment',
        request_type: args.request_type,
        nonce: nonceSecret,
        data: args.state,
      });
      await this.clearStaleState();
      await this.settings.stateStore.set(state.id, state.toStorageString());
      const url = new URL(authorization_endpoint);
      url.searchParams.set('client_id', this.connect.clientId);
      url.searchParams.set('response_type', 'id_token token');
      url.searchParams.set('scope', this.connect.scope);
      url.searchParams.set('redirect_uri', this.connect.redirectUri);
      url.searchParams.set('nonce', await sha256Base64url(nonceSecret));
      url.searchParams.set('state', state.id);
      const prompt = session.signedOutExplicitly
        ? REAUTHENTICATION_PROMPTS.find((value) => prompts.includes(value))
        : undefined;
      if (prompt) url.searchParams.set('prompt', prompt);
      return await handle.navigate({ url: url.href, state: state.id, response_mode: 'fragment' });
    } catch (error) {
      handle.close();
      throw error;
    }
  }

  /** Processes the fragment response; every check passes before a token is used. */
  protected override async _signinEnd(url: string, _verifySub?: string): Promise<User> {
    const params = new URLSearchParams(new URL(url).hash.slice(1));
    const state = await this.takeState(params.get('state'));
    const refusal = connectError(params);
    if (refusal) throw refusal;
    const { idToken, accessToken, expiresIn } = readTokens(params);
    if (!state.nonce)
      throw new SignInError(
        'state_mismatch',
        'The pending sign-in request has no nonce to check the ID token against.',
      );
    const metadata = await this.discovery();
    const claims = await verifyIdToken(idToken, {
      issuer: metadata.issuer,
      clientId: this.connect.clientId,
      announcedAlgorithms: metadata.algorithms,
      keys: ProviderKeys.for(metadata.jwks_uri),
      nonceSecret: state.nonce,
      accessToken,
    });

    const grantedScope = params.get('scope') ?? state.scope;
    const profile = grantedScope.split(' ').includes('profile')
      ? await fetchProfile(this.connect.authority, accessToken, claims.sub)
      : null;

    const user = new User({
      id_token: idToken,
      access_token: accessToken,
      token_type: 'Bearer',
      scope: grantedScope,
      profile: claims as UserProfile,
      expires_at: Math.floor(Date.now() / 1000) + Math.floor(expiresIn),
      userState: state.data,
    });
    if (profile) profiles.set(user, profile);
    await this.storeUser(user);
    await this._events.load(user);
    return user;
  }

  /**
   * The pending request a response answers, taken from the store: a response of this page's app only,
   * and once (a replayed or concurrent response finds nothing).
   */
  private async takeState(stateId: string | null): Promise<SigninState> {
    const orphan = () =>
      new SignInError('state_mismatch', 'The sign-in response does not answer a pending request of this page.');
    const stored = stateId ? await this.settings.stateStore.get(stateId) : null;
    if (!stateId || !stored) throw orphan();
    const state = await SigninState.fromStorageString(stored);
    // A request of another app on this page stays pending for that app's button.
    if (state.client_id !== this.connect.clientId || state.authority !== this.connect.authority) {
      throw new SignInError('state_mismatch', 'The sign-in response answers a request made for another app.');
    }
    // Removing the state makes it single use: a replayed (or concurrent) response finds nothing.
    if (!(await this.settings.stateStore.remove(stateId))) throw orphan();
    return state;
  }
}

/** The error Connect answered instead of tokens, if any, as the sign-in error the button shows. */
function connectError(params: URLSearchParams): SignInError | undefined {
  const error = params.get('error');
  if (!error) return undefined;
  const description = params.get('error_description') ?? error;
  // Connect's own trouble is passing, like a network failure; other errors mean the request was wrong.
  const code =
    error === 'access_denied'
      ? 'access_denied'
      : error === 'server_error' || error === 'temporarily_unavailable'
        ? 'network'
        : 'config';
  return new SignInError(code, `Connect answered ${error}: ${description}`);
}

/** The tokens of a successful response, each present and of the implicit flow's form. */
function readTokens(params: URLSearchParams): { idToken: string; accessToken: string; expiresIn: number } {
  const idToken = params.get('id_token');
  const accessToken = params.get('access_token');
  const tokenType = params.get('token_type');
  const expiresIn = Number(params.get('expires_in'));
  if (!idToken || !accessToken)
    throw new SignInError('invalid_token', 'The sign-in response lacks the ID token or the access token.');
  if (tokenType?.toLowerCase() !== 'bearer')
    throw new SignInError('invalid_token', `Unexpected token_type "${String(tokenType)}".`);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0)
    throw new SignInError('invalid_token', 'The sign-in response has no valid expires_in.');
  return { idToken, accessToken, expiresIn };
}
