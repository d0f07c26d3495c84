/**
 * The page-wide session's storage: each test imports a fresh copy of session.ts (a new module
 * instance, as on a new page load) so the storage choice and the restore run again.
 */
import { expect } from '@open-wc/testing';
import type { LoyaltyUser, SessionChangeReason } from '../../../src/connect/session.ts';

type SessionModule = typeof import('../../../src/connect/session.ts');

let loads = 0;
async function freshSession(): Promise<SessionModule['session']> {
  const module = (await import(`../../../src/connect/session.ts?page-load=${++loads}`)) as SessionModule;
  return module.session;
}

const KEY = 'loyalty-widgets:user';

function storedUser(overrides: Partial<LoyaltyUser> = {}): LoyaltyUser {
  return {
    sub: 's1',
    username: 'ana',
    loyaltyId: '0x1',
    accessToken: 'at',
    idToken: 'it',
    expiresAt: Date.now() + 60_000,
    scope: 'openid profile',
    ...overrides,
  };
}

describe('page session storage', () => {
  afterEach(() => {
    sessionStorage.removeItem(KEY);
    localStorage.removeItem(KEY);
  });

  it('restores an unexpired user from sessionStorage on the next page load', async () => {
    sessionStorage.setItem(KEY, JSON.stringify(storedUser()));
    const session = await freshSession();
    const reasons: SessionChangeReason[] = [];
    session.subscribe((_user, reason) => reasons.push(reason));
    session.useStorage('session');
    expect(session.user?.username).to.equal('ana');
    expect(reasons).to.deep.equal(['restored']);
  });

  it('on a page without a sign-in button, still sees the shopper an earlier page kept, and a later button chooses the storage', async () => {
    const empty = await freshSession();
    expect(empty.user).to.equal(null);
    expect(empty.storage, 'reading chooses nothing').to.equal('memory');

    sessionStorage.setItem(KEY, JSON.stringify(storedUser()));
    const session = await freshSession();
    const reasons: SessionChangeReason[] = [];
    session.subscribe((_user, reason) => reasons.push(reason));
    expect(session.user?.username).to.equal('ana');
    expect(reasons).to.deep.equal(['restored']);
    expect(session.storage).to.equal('memory');
    session.useStorage('local');
    expect(JSON.parse(localStorage.getItem(KEY)!).sub, 'the button’s choice still applies').to.equal('s1');

    sessionStorage.removeItem(KEY);
    localStorage.setItem(KEY, JSON.stringify(storedUser({ sub: 's2', expiresAt: Date.now() - 1 })));
    expect((await freshSession()).user, 'an expired kept user is nobody').to.equal(null);
  });

  it('drops an expired or malformed stored user', async () => {
    for (const stored of [
      JSON.stringify(storedUser({ expiresAt: Date.now() - 1 })),
      '{"sub":1}',
      'not json',
      JSON.stringify(null),
    ]) {
      sessionStorage.setItem(KEY, stored);
      const session = await freshSession();
      session.useStorage('session');
      expect(session.user, stored).to.equal(null);
      expect(sessionStorage.getItem(KEY), stored).to.equal(null);
    }
  });

  it('keeps the user in localStorage with storage="local", and nowhere with "memory"', async () => {
    const local = await freshSession();
    local.useStorage('local');
    local.set(storedUser(), 'signin');
    expect(JSON.parse(localStorage.getItem(KEY)!).sub).to.equal('s1');
    expect(sessionStorage.getItem(KEY)).to.equal(null);
    local.set(null, 'signout');
    expect(localStorage.getItem(KEY)).to.equal(null);

    const memory = await freshSession();
    memory.useStorage('memory');
    memory.set(storedUser(), 'signin');
    expect(localStorage.getItem(KEY)).to.equal(null);
    expect(sessionStorage.getItem(KEY)).to.equal(null);
    memory.set(null, 'signout');
  });

  it('follows a sign-out in another tab with storage="local"', async () => {
    const session = await freshSession();
    session.useStorage('local');
    session.set(storedUser(), 'signin');
    localStorage.removeItem(KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: KEY, newValue: null, storageArea: localStorage }));
    expect(session.user).to.equal(null);
  });

  it('the first choice of storage wins', async () => {
    const session = await freshSession();
    session.useStorage('memory');
    session.useStorage('local');
    expect(session.storage).to.equal('memory');
  });
});
