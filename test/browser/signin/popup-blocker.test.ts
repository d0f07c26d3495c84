/**
 * The browser's popup blocker, as shoppers have it. Firefox and WebKit run here with their blockers
 * on (Chromium's automation turns its own off, so these pins run in the other two): a window opens
 * only inside the shopper's press, and a sign-in started any other way is refused by the browser,
 * which the button then handles.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { onlyIn } from '../engine.ts';
import { hostileButton, hostileEnv, hostileStats, resetSession, setScenario, signInOnce } from './helpers.ts';

describe('Sign-in under the browser’s popup blocker', () => {
  afterEach(() => resetSession());

  it('opens the popup from a real press and signs in (every engine)', async () => {
    await setScenario('valid');
    const event = await signInOnce(await hostileButton());
    expect(event.type).to.equal('loyalty-signin');
  });

  onlyIn('firefox', 'webkit')(
    'reports popup_blocked in popup-only mode when the sign-in did not come from a press, and keeps nothing pending',
    async () => {
      await setScenario('valid');
      const el = await hostileButton();
      el.mode = 'popup-only';
      const outcome = new Promise<CustomEvent<{ code: string }>>((resolve) =>
        el.addEventListener('loyalty-signin-error', (event) => resolve(event as CustomEvent<{ code: string }>), {
          once: true,
        }),
      );
      el.signIn();
      expect((await outcome).detail.code).to.equal('popup_blocked');
      expect((await hostileStats()).authRequests, 'nothing reached the provider').to.have.length(0);
      expect(Object.keys(sessionStorage).filter((key) => key.startsWith('loyalty-widgets:'))).to.deep.equal([]);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.match(/\S/);
    },
  );

  onlyIn('firefox', 'webkit')(
    'falls back to a full-page redirect in popup mode when the popup is blocked, and signs in on return',
    async () => {
      await setScenario('valid');
      const env = await hostileEnv();
      // The merchant's page in a frame, so that its redirect does not unload the test page.
      const frame = document.createElement('iframe');
      const query = new URLSearchParams({ authority: env.url, 'client-id': env.clientId, mode: 'popup' });
      frame.src = `/test/browser/fixtures/signin-page.html?${query}`;
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      // Every document the frame shows, as it shows it (a document of the provider's origin is not readable).
      const shown: string[] = [];
      frame.addEventListener('load', () => {
        try {
          shown.push(frame.contentWindow!.location.pathname);
        } catch {
          shown.push('another origin');
        }
      });
      document.body.append(frame);
      try {
        await loaded;
        const button = () =>
          frame.contentDocument?.querySelector('loyalty-signin-button') as
            (HTMLElement & { signIn(): void; user: { sub: string } | null; updateComplete: Promise<unknown> }) | null;
        await waitUntil(() => button(), 'the page has its button');
        await button()!.updateComplete;
        const merchantPage = frame.contentDocument;
        let left = false;
        frame.contentWindow!.addEventListener('pagehide', () => (left = true), { once: true });
        button()!.signIn();
        // The redirect itself: the merchant's page is unloaded, the provider is asked to come back to
        // the callback page, and a new document of the merchant's page comes back signed in (a popup
        // sign-in would sign this very document in).
        await waitUntil(
          async () => (await hostileStats()).authRequests.length === 1,
          'the frame went to the provider',
          { timeout: 8000 },
        );
        const [request] = (await hostileStats()).authRequests;
        expect(request!.redirect_uri).to.equal(new URL('/test/browser/fixtures/callback.html', location.href).href);
        expect(request!.response_type).to.equal('id_token token');
        await waitUntil(() => button()?.user?.sub === 'hostile-user-1', 'the page came back signed in', {
          timeout: 8000,
        });
        expect(left, 'the merchant page was left').to.equal(true);
        expect(frame.contentDocument, 'the page was replaced by the one it came back to').not.to.equal(merchantPage);
        expect(shown[0]).to.equal('/test/browser/fixtures/signin-page.html');
        // The signed-in page may run before its document's load event: its load is awaited, not assumed.
        await waitUntil(
          () => shown.length > 1 && shown.at(-1) === '/test/browser/fixtures/signin-page.html',
          `the frame's last document loaded is the merchant's page again (documents shown: ${shown.join(', ')})`,
          { timeout: 8000 },
        );
      } finally {
        frame.remove();
      }
    },
  );
});
