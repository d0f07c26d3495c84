/** What Connect's route modules share: the stores, the issuer, and the browser session cookie. */
import type { Context } from 'hono';
import type { KeyRing } from '../keys.ts';
import type { AppRegistry } from './apps.ts';
import type { BrowserSession, BrowserSessions, PendingRequests, SessionUser } from './sessions.ts';
import type { SignInThrottle } from './throttle.ts';
import type { AccessTokens } from './tokens.ts';
import type { UserDirectory, WalletUser } from './users.ts';

export interface ConnectDeps {
  keys: KeyRing;
  apps: AppRegistry;
  users: UserDirectory;
  tokens: AccessTokens;
  sessions: BrowserSessions;
  tokenLifetimeSeconds: number;
}

export interface ConnectContext extends ConnectDeps {
  pending: PendingRequests;
  throttle: SignInThrottle;
  /** The issuer, known once the port is bound. */
  issuer(): string;
  currentSession(c: Context): BrowserSession | undefined;
  /** A new session (and cookie), anonymous or signed in. */
  startSession(c: Context, user?: SessionUser): BrowserSession;
  endSession(c: Context, session: BrowserSession): void;
  signedInUser(session: BrowserSession | undefined): WalletUser | undefined;
}
