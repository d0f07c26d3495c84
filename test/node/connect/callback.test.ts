/**
 * The callback's first step on a page whose address carries a sign-in response, with the page's
 * window and storage stood in for: which address is a response, that the tokens leave the address
 * bar first, that a popup hands the response only to an opener of its own origin, and that a
 * redirect response is kept for the button of the app that asked for it. The same in real browsers
 * (and across real origins) is in test/browser/signin.
 */
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import {
  captureSignInResponse,
  pendingRequest,
  POPUP_MESSAGE_SOURCE,
  signInResponseParams,
  takeCapturedResponse,
} from '../../../src/connect/callback.ts';
import { POPUP_REQUEST_TYPE, REDIRECT_REQUEST_TYPE, STATE_STORAGE_PREFIX } from '../../../src/connect/options.ts';

const PAGE = 'https://shop.example/account?tab=1';
const RESPONSE = `${PAGE}#id_token=i.d.t&access_token=a-token&token_type=Bearer&state=s1`;

interface Posted {
  message: unknown;
  targetOrigin: string;
}

/**
 * The opener's sessionStorage: a popup sign-in pending (as oidc-client-ts keeps it), or only what
 * does not make a popup sign-in: a redirect sign-in pending, a popup-like record under another key.
 */
function openerStorage(waiting: boolean, idle: Record<string, string> = {}): Storage {
  const stored: Record<string, string> = waiting
    ? { [`${STATE_STORAGE_PREFIX}s1`]: JSON.stringify({ request_type: POPUP_REQUEST_TYPE }) }
    : { ...idle };
  return storageOver(new Map(Object.entries(stored)));
}

/** Web Storage over a Map, as a page that can use its storage has it. */
function storageOver(items: Map<string, string>): Storage {
  return {
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/** Where the page's chosen storage is kept on a window (src/shared/page-storage.ts), forgotten between tests. */
const PAGE_STORAGE = Symbol.for('loyalty-widgets:page-storage');

/**
 * A window at `href`, with an opener that records what it is sent: one of the page's origin waiting
 * for a popup sign-in (`other`), one of the page's origin waiting for nothing (`idle`), one of another
 * origin (`foreign`, whose location throws when read), the window itself (`self`) or none.
 */
function windowAt(
  href: string,
  opener: 'other' | 'idle' | 'redirecting' | 'unrelated' | 'foreign' | 'self' | 'none' = 'other',
) {
  const url = new URL(href);
  const posted: Posted[] = [];
  const replaced: string[] = [];
  let closed = 0;
  const win = {
    location: { href, origin: url.origin, pathname: url.pathname, search: url.search },
    history: {
      state: { kept: true },
      replaceState: (_state: unknown, _title: string, to: string) => replaced.push(to),
    },
    close: () => void (closed += 1),
    opener: null as unknown,
  };
  const postMessage = (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin });
  const idle: Record<string, Record<string, string>> = {
    redirecting: { [`${STATE_STORAGE_PREFIX}s9`]: JSON.stringify({ request_type: REDIRECT_REQUEST_TYPE }) },
    unrelated: { 'another-library:s1': JSON.stringify({ request_type: POPUP_REQUEST_TYPE }) },
  };
  if (opener === 'other' || opener === 'idle' || opener === 'redirecting' || opener === 'unrelated')
    win.opener = {
      postMessage,
      location: { origin: url.origin },
      sessionStorage: openerStorage(opener === 'other', idle[opener]),
    };
  if (opener === 'foreign')
    win.opener = {
      postMessage,
      get location(): never {
        throw new DOMException('Blocked a frame from accessing a cross-origin frame.', 'SecurityError');
      },
    };
  if (opener === 'self') win.opener = win;
  return { win: win as unknown as Window, posted, replaced, closed: () => closed };
}

/** sessionStorage as the page has it (oidc-client-ts keeps pending requests there). */
const storage = new Map<string, string>();
const broadcasts: { name: string; message: unknown }[] = [];

beforeEach(() => {
  storage.clear();
  broadcasts.length = 0;
  Object.assign(globalThis, {
    sessionStorage: storageOver(storage),
    BroadcastChannel: class {
      constructor(private readonly name: string) {}
      postMessage(message: unknown) {
        broadcasts.push({ name: this.name, message });
      }
      close() {}
    },
  });
  takeCapturedResponse();
});
afterEach(() => {
  takeCapturedResponse();
  delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
  delete (globalThis as { [PAGE_STORAGE]?: unknown })[PAGE_STORAGE];
});

describe('sign-in responses in the address', () => {
  it('are a state with tokens or an error, in the fragment only', () => {
    assert.equal(signInResponseParams(RESPONSE)?.get('access_token'), 'a-token');
    assert.equal(signInResponseParams(`${PAGE}#error=access_denied&state=s1`)?.get('error'), 'access_denied');
    assert.equal(signInResponseParams(`${PAGE}#id_token=x&state=s1`)?.get('id_token'), 'x');
    assert.equal(signInResponseParams(`${PAGE}#access_token=x&state=s1`)?.get('access_token'), 'x');
    for (const href of [
      PAGE,
      `${PAGE}#`,
      `${PAGE}#state=s1`,
      `${PAGE}#id_token=x`,
      `${PAGE}#access_token=x&error=e`,
      `${PAGE}#section-2`,
      `https://shop.example/?id_token=x&state=s1`,
    ])
      assert.equal(signInResponseParams(href), undefined, href);
  });
});

describe('captureSignInResponse', () => {
  it('leaves a page that is not a response alone', () => {
    const { win, posted, replaced } = windowAt(`${PAGE}#section-2`);
    assert.equal(captureSignInResponse(win), false);
    assert.deepEqual(replaced, []);
    assert.deepEqual(posted, []);
    assert.equal(takeCapturedResponse(), undefined);
  });

  it('takes the tokens out of the address bar, keeping the path, query and history state', () => {
    const { win, replaced } = windowAt(RESPONSE);
    captureSignInResponse(win);
    assert.deepEqual(replaced, ['/account?tab=1']);
  });

  it("in a popup, posts the response to the opener for the page's own origin only, and nowhere else", () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { win, posted, closed } = windowAt(RESPONSE);
    assert.equal(captureSignInResponse(win), true, 'the page does nothing else');
    mock.timers.tick(2999);
    assert.equal(closed(), 0, 'the opener gets its time to close the popup');
    mock.timers.tick(1);
    assert.equal(closed(), 1, 'then it closes itself');
    mock.timers.reset();
    assert.deepEqual(posted, [
      {
        message: { source: POPUP_MESSAGE_SOURCE, url: RESPONSE, keepOpen: false },
        targetOrigin: 'https://shop.example',
      },
    ]);
    assert.equal(POPUP_MESSAGE_SOURCE, 'oidc-client', 'the source oidc-client-ts listens for');
    assert.deepEqual(broadcasts, []);
    assert.equal(takeCapturedResponse(), undefined, 'nothing kept in the popup');
  });

  it('without an opener (cut by the provider), tells the waiting tab over the channel named after the state, and keeps it', () => {
    const { win, posted } = windowAt(RESPONSE, 'none');
    assert.equal(captureSignInResponse(win), false);
    assert.deepEqual(posted, []);
    assert.deepEqual(broadcasts, [
      { name: 'oidc-client-popup-s1', message: { source: POPUP_MESSAGE_SOURCE, url: RESPONSE, keepOpen: false } },
    ]);
    assert.equal(takeCapturedResponse(), RESPONSE);
    assert.equal(takeCapturedResponse(), undefined, 'taken once');
  });

  it('hands nothing to an opener of another origin, nor to one of its own that started no popup sign-in, and keeps the response for this page', () => {
    for (const opener of ['foreign', 'idle', 'redirecting', 'unrelated', 'self'] as const) {
      const { win, posted } = windowAt(RESPONSE, opener);
      assert.equal(captureSignInResponse(win), false, opener);
      assert.deepEqual(posted, [], opener);
      assert.deepEqual(broadcasts, [], opener);
      assert.equal(takeCapturedResponse(), RESPONSE, opener);
    }
  });

  it("keeps a redirect response for this page's button, even with an opener, and posts it nowhere", () => {
    storage.set(
      `${STATE_STORAGE_PREFIX}s1`,
      JSON.stringify({ request_type: REDIRECT_REQUEST_TYPE, client_id: 'app-1' }),
    );
    const { win, posted, replaced } = windowAt(RESPONSE);
    assert.equal(captureSignInResponse(win), false);
    assert.deepEqual(posted, []);
    assert.deepEqual(broadcasts, []);
    assert.deepEqual(replaced, ['/account?tab=1']);
    assert.deepEqual(pendingRequest(RESPONSE), { request_type: REDIRECT_REQUEST_TYPE, client_id: 'app-1' });
    assert.equal(
      takeCapturedResponse((request) => request?.client_id === 'another-app'),
      undefined,
      'not for the button of another app',
    );
    assert.equal(
      takeCapturedResponse((request) => request?.client_id === 'app-1'),
      RESPONSE,
    );
    assert.equal(takeCapturedResponse(), undefined);
  });

  it('hands out nothing when no response was kept, whatever the check', () => {
    assert.equal(
      takeCapturedResponse(() => true),
      undefined,
    );
  });

  it('treats a pending request it cannot read as none', () => {
    storage.set(`${STATE_STORAGE_PREFIX}s1`, '{not json');
    assert.equal(pendingRequest(RESPONSE), undefined);
    assert.equal(pendingRequest(PAGE), undefined);
  });
});
