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

export interface BrowserSession {
  /** The cookie value; kept only in memory, the file holds its digest. */
  id: string;
  csrf: string;
  sub?: string;
  /** Seconds since the epoch when the password was last entered. */
  authTime?: number;
  expiresAt: number;
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
  create(user?: { sub: string; authTime: number }): BrowserSession {
    const session: BrowserSession = { id: randomId(), csrf: randomId(), expiresAt: Date.now() + SESSION_LIFETIME_MS, ...user };
    const { id, ...stored } = session;
    this.save((sessions) => ({ ...sessions, [digest(id)]: stored }));
    return session;
  }

  destroy(id: string): void {
    this.save((sessions) => Object.fromEntries(Object.entries(sessions).filter(([key]) => key !== digest(id))));
  }

  private save(change: (sessions: Record<string, StoredSession>) => Record<string, StoredSession>): void {
    const now = Date.now();
    this.file.update(
      () => ({ sessions: {} }),
      (file) => ({ sessions: Object.fromEntries(Object.entries(change(file.sessions)).filter(([, s]) => s.expiresAt > now)) }),
    );
  }
}

interface PendingRequest {
  request: AuthRequest;
  sessionKey: string;
  expiresAt: number;
}

export class PendingRequests {
  private readonly requests = new Map<string, PendingRequest>();

  add(request: AuthRequest, session: BrowserSession): string {
    const now = Date.now();
    for (const [id, pending] of this.requests) if (pending.expiresAt <= now) this.requests.delete(id);
    const id = randomId();
    this.requests.set(id, { request, sessionKey: digest(session.id), expiresAt: now + REQUEST_LIFETIME_MS });
    return id;
  }

  /** The request, when it exists, is fresh, and belongs to this browser session. */
  get(id: string | undefined, session: BrowserSession): AuthRequest | undefined {
    const pending = id ? this.requests.get(id) : undefined;
    if (!pending || pending.expiresAt <= Date.now() || pending.sessionKey !== digest(session.id)) return undefined;
    return pending.request;
  }

  /** Moves a request to the session that replaced its own at sign-in. */
  rebind(id: string, session: BrowserSession): void {
    const pending = this.requests.get(id);
    if (pending) pending.sessionKey = digest(session.id);
  }

  /** Each request is answered once. */
  take(id: string, session: BrowserSession): AuthRequest | undefined {
    const request = this.get(id, session);
    if (request) this.requests.delete(id);
    return request;
  }
}
