/**
 * Browser sessions on the provider (`sessions.json`, keyed by a digest of the cookie value) with a
 * CSRF token each, and the pending authorization requests (in memory, short-lived) that the sign-in
 * and consent forms refer to by id. Client id and redirect URI live only here, never in a form.
 */
import { randomBytes } from 'node:crypto';
import { digest } from '../crypto.ts';
import { JsonFile } from '../store.ts';
import type { AuthRequest } from './authorize.ts';

export const SESSION_COOKIE = 'loyalty_sandbox_session';
const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
const REQUEST_LIFETIME_MS = 10 * 60 * 1000;
/** Bounds on what anonymous requests can make the sandbox keep: the oldest goes first. */
const MAX_SESSIONS = 10_000;
const MAX_PENDING_REQUESTS = 10_000;

export interface BrowserSession {
  /** The cookie value; kept only in memory, the file holds its digest. */
  id: string;
  csrf: string;
  sub?: string;
  /** Seconds since the epoch when the password was last entered. */
  authTime?: number;
  /** Scopes the user allowed per app in this session; only `prompt=none` relies on them. */
  consents?: Record<string, string[]>;
  expiresAt: number;
}

export interface SessionUser {
  sub: string;
  authTime: number;
  consents?: Record<string, string[]>;
}

type StoredSession = Omit<BrowserSession, 'id'>;

function randomId(): string {
  return randomBytes(32).toString('base64url');
}

export class BrowserSessions {
  private readonly file: JsonFile<{ sessions: Record<string, StoredSession> }>;

  constructor(dataDir: string) {
    this.file = JsonFile.in(dataDir, 'sessions.json', 0o600);
  }

  get(id: string | undefined): BrowserSession | undefined {
    if (!id) return undefined;
    const stored = this.file.read()?.sessions[digest(id)];
    return stored && stored.expiresAt > Date.now() ? { id, ...stored } : undefined;
  }

  /** A new session, anonymous or signed in. */
  create(user?: SessionUser): BrowserSession {
    const session: BrowserSession = {
      id: randomId(),
      csrf: randomId(),
      expiresAt: Date.now() + SESSION_LIFETIME_MS,
      ...user,
    };
    const { id, ...stored } = session;
    this.save((sessions) => ({ ...sessions, [digest(id)]: stored }));
    return session;
  }

  /** Records that the user allowed `scopes` for `appId`. */
  rememberConsent(session: BrowserSession, appId: string, scopes: string[]): void {
    const key = digest(session.id);
    this.save((sessions) => {
      const stored = sessions[key];
      if (!stored) return sessions;
      const granted = [...new Set([...(stored.consents?.[appId] ?? []), ...scopes])];
      return { ...sessions, [key]: { ...stored, consents: { ...stored.consents, [appId]: granted } } };
    });
  }

  destroy(id: string): void {
    this.save((sessions) => Object.fromEntries(Object.entries(sessions).filter(([key]) => key !== digest(id))));
  }

  private save(change: (sessions: Record<string, StoredSession>) => Record<string, StoredSession>): void {
    const now = Date.now();
    this.file.update(
      () => ({ sessions: {} }),
      (file) => {
        const live = Object.entries(change(file.sessions)).filter(([, s]) => s.expiresAt > now);
        return {
          sessions: Object.fromEntries(live.sort(([, a], [, b]) => a.expiresAt - b.expiresAt).slice(-MAX_SESSIONS)),
        };
      },
    );
  }
}

interface PendingRequest {
  request: AuthRequest;
  sessionKey: string;
  expiresAt: number;
  /** The password was entered for this very request (prompt=login and max_age are then satisfied). */
  signedIn: boolean;
}

export class PendingRequests {
  private readonly requests = new Map<string, PendingRequest>();

  add(request: AuthRequest, session: BrowserSession): string {
    const now = Date.now();
    for (const [id, pending] of this.requests) if (pending.expiresAt <= now) this.requests.delete(id);
    // A Map iterates in insertion order, so the first key is the oldest request.
    while (this.requests.size >= MAX_PENDING_REQUESTS) this.requests.delete(this.requests.keys().next().value!);
    const id = randomId();
    this.requests.set(id, {
      request,
      sessionKey: digest(session.id),
      expiresAt: now + REQUEST_LIFETIME_MS,
      signedIn: false,
    });
    return id;
  }

  /** The request, when it exists, is fresh, and belongs to this browser session. */
  get(id: string | undefined, session: BrowserSession): AuthRequest | undefined {
    return this.entry(id, session)?.request;
  }

  /** Whether the password was entered for this request. */
  signedInFor(id: string, session: BrowserSession): boolean {
    return this.entry(id, session)?.signedIn ?? false;
  }

  /** Moves a request to the session that replaced its own: at sign-in (`signedIn`) or sign-out. */
  rebind(id: string, session: BrowserSession, signedIn: boolean): void {
    const pending = this.requests.get(id);
    if (!pending) return;
    pending.sessionKey = digest(session.id);
    pending.signedIn = signedIn;
  }

  /** Each request is answered once. */
  take(id: string, session: BrowserSession): AuthRequest | undefined {
    const request = this.get(id, session);
    if (request) this.requests.delete(id);
    return request;
  }

  private entry(id: string | undefined, session: BrowserSession): PendingRequest | undefined {
    const pending = id ? this.requests.get(id) : undefined;
    return pending && pending.expiresAt > Date.now() && pending.sessionKey === digest(session.id) ? pending : undefined;
  }
}
