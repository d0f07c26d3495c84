/**
 * Where the page's own origin serves the built script tag, the shipped
 * callback.html beside it is the default redirect URI (the script tag records it when it starts); a
 * script from another origin (a CDN) leaves the current page as the default, and the head's
 * <meta name="loyalty-redirect-uri"> comes before either.
 */
import { expect } from '@open-wc/testing';
import { recordShippedCallbackPage, shippedCallbackPage } from '../../../src/shared/callback-page.ts';
import { hostileButton, hostileEnv, hostileStats, resetSession, setScenario, signInOnce } from '../signin/helpers.ts';

/** The address of the request the button sent the provider for its sign-in. */
async function askedRedirectUri(): Promise<string | undefined> {
  const button = await hostileButton();
  button.redirectUri = '';
  const event = await signInOnce(button);
  expect(event.type, JSON.stringify(event.detail)).to.equal('loyalty-signin');
  const [request] = (await hostileStats()).authRequests;
  return request?.redirect_uri;
}

const cdnScript = 'https://cdn.example/loyalty/loyalty-widgets.js';

describe('the default redirect URI of a site that serves the script tag itself', () => {
  afterEach(() => {
    resetSession();
    recordShippedCallbackPage(cdnScript, location.origin, [cdnScript]);
    for (const meta of document.head.querySelectorAll('meta[name="loyalty-redirect-uri"]')) meta.remove();
  });

  it('is the callback.html beside the script tag, without the script’s query', async () => {
    const env = await hostileEnv();
    await setScenario('valid');
    const script = new URL('./loyalty-widgets.js?pasted-twice', env.redirectUri).href;
    recordShippedCallbackPage(script, location.origin, [`${location.origin}/theme.js`, script]);
    expect(await askedRedirectUri()).to.equal(env.redirectUri);
  });

  it('is not a callback.html of another origin (a CDN serving the script tag): the current page stays the default', () => {
    const own = `${location.origin}/dist/loyalty-widgets.js`;
    recordShippedCallbackPage(own, location.origin, [own]);
    expect(shippedCallbackPage()).to.equal(`${location.origin}/dist/callback.html`);
    recordShippedCallbackPage(cdnScript, location.origin, [cdnScript]);
    expect(shippedCallbackPage()).to.equal(undefined);
  });

  it('is not beside a merchant’s bundle that took the script in, nor a script no <script src> loaded', () => {
    const bundle = `${location.origin}/assets/index-4f2a9c.js`;
    recordShippedCallbackPage(bundle, location.origin, [bundle]);
    expect(shippedCallbackPage(), 'bundled into the merchant’s own file').to.equal(undefined);
    const prebundled = `${location.origin}/node_modules/.vite/deps/loyalty-widgets.js?v=81c2`;
    recordShippedCallbackPage(prebundled, location.origin, [`${location.origin}/src/main.ts`]);
    expect(shippedCallbackPage(), 'imported by a bundler’s dev server').to.equal(undefined);
  });

  it('gives way to the head’s <meta name="loyalty-redirect-uri">', async () => {
    const env = await hostileEnv();
    await setScenario('valid');
    const script = `${location.origin}/somewhere/else/loyalty-widgets.js`;
    recordShippedCallbackPage(script, location.origin, [script]);
    document.head.append(
      Object.assign(document.createElement('meta'), { name: 'loyalty-redirect-uri', content: env.redirectUri }),
    );
    expect(await askedRedirectUri()).to.equal(env.redirectUri);
  });
});
