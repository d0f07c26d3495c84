/**
 * Rewarding a shopper on the demo site, end to end: a shopper signs in on the events page, the page
 * posts both tokens to the shop's /api/rewards, which verifies them with verifyShopper() and answers
 * with the loyalty ID it would credit. The tokens of another app registered at the same Connect are
 * refused there and by the shop's Marketing proxy.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { saveScreenshot, signInThroughPopup, useE2eStack } from '../support/e2e.ts';
import { signedIn, signInAs, type SignedInTokens } from '../node/support/shopper.ts';

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { rewarded?: { loyaltyId: string }; error?: { code: string } },
  };
}

describe('rewarding a verified shopper on the demo site', () => {
  const stack = useE2eStack({ demoSite: true });

  it('the events page posts the signed-in tokens; the server verifies them and logs the loyalty ID', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1200, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(new URL('events.html', stack.demoUrl).href);
      await signInThroughPopup(page);
      const log = page.locator('#event-log');
      await log.filter({ hasText: 'loyalty-signin' }).waitFor();
      const loyaltyId = await page.evaluate(() => document.querySelector('loyalty-signin-button')!.user!.loyaltyId!);
      assert.match(loyaltyId, /^0x[0-9a-f]{40}$/i);

      await page.getByRole('button', { name: 'Reward me' }).click();
      await log.filter({ hasText: 'rewards  200' }).waitFor();
      const text = (await log.textContent()) ?? '';
      const line = text.split('\n').find((entry) => entry.includes('rewards  200'))!;
      assert.ok(line.includes(`"loyaltyId":"${loyaltyId}"`), line);
      assert.ok(line.includes('"username":"demo"'), line);
      assert.match(text, /"idToken":"[^"]{4}…"/, 'the ID token is shown redacted in the signin event');
      await saveScreenshot(page, 'events-rewarded');
    } finally {
      await context.close();
    }
  });

  it("refuses the tokens of another registered app, at the rewards endpoint and at the proxy; the demo app's are accepted", async () => {
    const redirectUri = stack.demoUrl;
    const other = await stack.sandbox.registerApp({ name: 'Another shop', redirectUris: [redirectUri] });
    const foreign: SignedInTokens = await signInAs({
      connectUrl: stack.connectUrl,
      clientId: other.app_id,
      redirectUri,
    });
    const rewards = new URL('api/rewards', stack.demoUrl).href;
    const marketing = new URL('api/marketing', stack.demoUrl).href;
    const membersCoupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } };

    const refusedReward = await postJson(rewards, foreign);
    assert.equal(refusedReward.status, 401);
    assert.equal(refusedReward.body.error?.code, 'invalid_token');
    const minted = stack.sandbox.stats().couponsMinted;
    const refusedCoupon = await postJson(marketing, membersCoupon, signedIn(foreign));
    assert.equal(refusedCoupon.status, 401);
    assert.equal(refusedCoupon.body.error?.code, 'invalid_token');
    assert.equal(stack.sandbox.stats().couponsMinted, minted);
    const noTokens = await postJson(rewards, { loyaltyId: '0x0000000000000000000000000000000000000001' });
    assert.equal(noTokens.status, 401, 'a loyalty ID alone rewards nobody');

    const own = await signInAs({
      connectUrl: stack.connectUrl,
      clientId: stack.sandbox.demoApp.app_id,
      redirectUri: stack.sandbox.demoApp.redirect_uris[0]!,
    });
    const reward = await postJson(rewards, own);
    assert.equal(reward.status, 200);
    assert.match(reward.body.rewarded?.loyaltyId ?? '', /^0x/);
    assert.equal((await postJson(marketing, membersCoupon, signedIn(own))).status, 200);
  });
});
