/**
 * Issue 25, finding 5: any site can open a shop's page with a made-up sign-in response in its
 * address. The page hands a response over and closes only for an opener of its own origin that is
 * waiting for that sign-in; any other time it starts its widgets as usual.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { pressForReal } from '../engine.ts';
import { hostileEnv } from '../signin/helpers.ts';

const FORGED = '#state=1&error=x';

/** What the shop page opened under this run said first: it started its widgets, or it closed. */
function firstWord(run: string): { outcome: Promise<string>; close(): void } {
  const channel = new BroadcastChannel('loyalty-test-pages');
  const outcome = new Promise<string>((resolve) => {
    channel.addEventListener('message', ({ data }: MessageEvent<{ run?: string; outcome?: string }>) => {
      if (data.run === run && data.outcome) resolve(data.outcome);
    });
  });
  return {
    outcome,
    close() {
      channel.postMessage({ close: run });
      channel.close();
    },
  };
}

const shopPage = (run: string) =>
  new URL(`/test/browser/fixtures/shop-page.html?run=${run}${FORGED}`, location.href).href;

describe('a shop page opened by another window with a sign-in response in its address', () => {
  it('opened by another site: starts its widgets and stays open', async () => {
    const run = crypto.randomUUID();
    const page = firstWord(run);
    const frame = document.createElement('iframe');
    frame.src = `${(await hostileEnv()).url}/__hostile/opener?url=${encodeURIComponent(shopPage(run))}`;
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
    try {
      await loaded;
      // A key press inside the other site's frame: the window it opens has that site as its opener.
      frame.contentWindow!.focus();
      await sendKeys({ press: 'Enter' });
      expect(await page.outcome).to.equal('started');
    } finally {
      page.close();
      frame.remove();
    }
  });

  it('opened by a page of its own site that started no sign-in: starts its widgets and stays open', async () => {
    const run = crypto.randomUUID();
    const page = firstWord(run);
    const button = document.createElement('button');
    let opened: Window | null = null;
    button.addEventListener('click', () => (opened = window.open(shopPage(run), '_blank')));
    document.body.append(button);
    try {
      await pressForReal(button);
      expect(await page.outcome).to.equal('started');
      expect(opened!.closed).to.equal(false);
    } finally {
      page.close();
      button.remove();
    }
  });
});
