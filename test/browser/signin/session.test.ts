/**
 * The page-wide session's storage: each test imports a fresh copy of session.ts (a new module
 * instance, as on a new page load) so the storage choice and the restore run again.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { LoyaltyUser, SessionChangeReason } from '../../../src/connect/session.ts';

type SessionModule = typeof import('../../../src/connect/session.ts');

let loads = 0;
/** Every copy loaded so far: they hear each other on the session's channel, as the tabs of a site do. */
const loaded: SessionModule['session'][] = [];
async function freshSession(): Promise<SessionModule['session']> {
  const module = (await import(`../../../src/connect/session.ts?page-load=${++loads}`)) as SessionModule;
  loaded.push(module.session);
  return module.session;
}

/** One trip over the session's channel: what the copies posted before it has been delivered. */
async function channelDrained(): Promise<void> {
  const sender = new BroadcastChannel('loyalty-widgets:session');
  const receiver = new BroadcastChannel('loyalty-widgets:session');
  await new Promise<void>((resolve) => {
    receiver.onmessage = () => resolve();
    sender.postMessage({ kind: 'drain' });
  });
  sender.close();
  receiver.close();
}

/**
 * Ends the sessions of the copies loaded so far, as closing those tabs would. The copies stay
 * loaded and keep listening, so the news still on its way to them is let through first.
 */
async function closeTabs(): Promise<void> {
  await channelDrained();
  for (const copy of loaded) copy.set(null, 'expired');
  await channelDrained();
  for (const copy of loaded) copy.set(null, 'expired');

  for (const storage of [sessionStorage, localStorage])
    for (const key of Object.keys(storage)) if (key.startsWith('loyalty-widgets:')) storage.removeItem(key);
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
  afterEach(closeTabs);

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
      await closeTabs();
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

  describe('across the tabs of the site (each copy of the module is a tab)', () => {
    for (const kind of ['session', 'local', 'memory'] as const) {
      it(`with storage="${kind}", a sign-in and a sign-out in one tab reach the others`, async () => {
        const tabA = await freshSession();
        const tabB = await freshSession();
        tabA.useStorage(kind);
        tabB.useStorage(kind);
        const heardInB: SessionChangeReason[] = [];
        tabB.subscribe((_user, reason) => heardInB.push(reason));
        tabA.set(storedUser({ sub: 'ana-tabs' }), 'signin');
        await waitUntil(() => tabB.user?.sub === 'ana-tabs', 'tab B is signed in too');
        tabA.set(null, 'signout');
        await waitUntil(() => tabB.user === null, 'tab B is signed out too');
        expect(heardInB).to.deep.equal(['signin', 'signout']);
        expect(sessionStorage.getItem(KEY)).to.equal(null);
        expect(localStorage.getItem(KEY)).to.equal(null);
      });
    }

    it('a tab opened after the sign-in is signed in as well, with the default storage', async () => {
      const tabA = await freshSession();
      tabA.useStorage('session');
      tabA.set(storedUser({ sub: 'ana-later' }), 'signin');
      // A new tab has its own, empty, sessionStorage.
      sessionStorage.removeItem(KEY);
      const tabB = await freshSession();
      tabB.useStorage('session');
      await waitUntil(() => tabB.user?.sub === 'ana-later', 'the new tab asked and was told');
    });

    it('an expiry ends the session in every tab, and each tab hears of it once', async () => {
      const tabA = await freshSession();
      const tabB = await freshSession();
      tabA.useStorage('session');
      tabB.useStorage('session');
      const heard: Record<string, SessionChangeReason[]> = { a: [], b: [] };
      tabA.subscribe((_user, reason) => heard.a!.push(reason));
      tabB.subscribe((_user, reason) => heard.b!.push(reason));
      tabA.set(storedUser({ sub: 'ana-expiring', expiresAt: Date.now() + 400 }), 'signin');
      await waitUntil(() => tabB.user?.sub === 'ana-expiring');
      await waitUntil(() => heard.a!.length === 2 && heard.b!.length === 2, 'both tabs heard the expiry');
      // One more round trip on the channel: a late second notice would have arrived by now.
      const probe = await freshSession();
      probe.useStorage('session');
      probe.set(storedUser({ sub: 'probe' }), 'signin');
      await waitUntil(() => tabB.user?.sub === 'probe');
      expect(heard.a).to.deep.equal(['signin', 'expired', 'signin']);
      expect(heard.b).to.deep.equal(['signin', 'expired', 'signin']);
    });

    it('after an explicit sign-out, no tab restores what its storage still kept, and nothing of the shopper stays', async () => {
      const tabA = await freshSession();
      tabA.useStorage('session');
      tabA.set(storedUser({ sub: 'ana-shared' }), 'signin');
      localStorage.setItem('loyalty-widgets:coupon:ana-shared:camp-1', '{"code":"SAVE-1","claimedAt":1}');
      localStorage.setItem('loyalty-widgets:claim-key:anonymous:camp-2', 'key-2');
      localStorage.setItem('someone-else', 'kept');
      expect(tabA.signedOutExplicitly).to.equal(false);
      tabA.set(null, 'signout');
      expect(tabA.signedOutExplicitly).to.equal(true);
      const left = Object.keys(localStorage).filter((key) => key.startsWith('loyalty-widgets:'));
      expect(left, 'only the sign-out mark').to.deep.equal(['loyalty-widgets:signed-out']);
      expect(localStorage.getItem('someone-else'), "the site's own keys stay").to.equal('kept');
      localStorage.removeItem('someone-else');

      // A tab that slept through the sign-out (its sessionStorage still holds the shopper) loads again.
      sessionStorage.setItem(KEY, JSON.stringify(storedUser({ sub: 'ana-shared' })));
      const tabB = await freshSession();
      tabB.useStorage('session');
      expect(tabB.user).to.equal(null);
      expect(sessionStorage.getItem(KEY)).to.equal(null);

      // The next sign-in lifts the mark.
      tabB.set(storedUser({ sub: 'bo' }), 'signin');
      expect(tabB.signedOutExplicitly).to.equal(false);
      await waitUntil(() => !tabA.signedOutExplicitly && tabA.user?.sub === 'bo');
    });

    it('refuses a malformed or expired user from another tab', async () => {
      const tabB = await freshSession();
      tabB.useStorage('session');
      const channel = new BroadcastChannel('loyalty-widgets:session');
      try {
        channel.postMessage({ kind: 'signin', user: { sub: 'x' } });
        channel.postMessage({ kind: 'signin', user: storedUser({ sub: 'late', expiresAt: Date.now() - 1 }) });
        channel.postMessage({ kind: 'present', user: '<script>' });
        channel.postMessage({ kind: 'signin', user: storedUser({ sub: 'fine' }) });
        await waitUntil(() => tabB.user?.sub === 'fine', 'the well-formed one arrives after the others');
      } finally {
        channel.close();
      }
    });
  });
});
