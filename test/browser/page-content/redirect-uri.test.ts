/**
 * Issue 25, finding 4 (in part): the page's default redirect URI is the merchant's, from the head's
 * <meta name="loyalty-redirect-uri"> (the WordPress plugin prints its bare callback page there); one in
 * the body is content and is not read.
 */
import { expect } from '@open-wc/testing';
import { hostileButton, hostileEnv, hostileStats, resetSession, setScenario, signInOnce } from '../signin/helpers.ts';
import { placeBlock } from './helpers.ts';

describe('the page’s redirect URI', () => {
  afterEach(() => {
    resetSession();
    for (const meta of document.querySelectorAll('meta[name="loyalty-redirect-uri"]')) meta.remove();
  });

  it('is the head’s <meta name="loyalty-redirect-uri"> for a button without redirect-uri, and not one in the body', async () => {
    const env = await hostileEnv();
    await setScenario('valid');
    const block = placeBlock(`<meta name="loyalty-redirect-uri" content="${location.origin}/">`);
    document.head.append(
      Object.assign(document.createElement('meta'), { name: 'loyalty-redirect-uri', content: env.redirectUri }),
    );
    const button = await hostileButton();
    button.redirectUri = '';
    const event = await signInOnce(button);
    expect(event.type, JSON.stringify(event.detail)).to.equal('loyalty-signin');
    const [request] = (await hostileStats()).authRequests;
    expect(request!.redirect_uri).to.equal(env.redirectUri);
    block.remove();
  });
});
