import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { onlyIn } from '../engine.ts';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import { clearStoredClaims } from './helpers.ts';

async function settled(root: HTMLElement): Promise<void> {
  for (const el of root.querySelectorAll('campaign-carousel, business-directory, coupon-claim')) {
    await waitUntil(
      () =>
        el.shadowRoot?.querySelector(
          '[part~="slide"], [part~="card"], [part~="claim-button"], [part~="error"], [part~="empty"]',
        ),
      `${el.localName} did not load`,
      { timeout: 8000 },
    );
  }
}

const page = () => html`<div>
  <campaign-carousel business-account-id="biz-greenleaf-market" limit="3" currency="EUR"></campaign-carousel>
  <coupon-claim campaign-id="camp-greenleaf-deli" currency="EUR"></coupon-claim>
  <business-directory limit="3"></business-directory>
</div>`;

describe('Marketing elements in a merchant’s theme', () => {
  beforeEach(clearStoredClaims);

  // Media emulation goes through the DevTools protocol, which only Chromium's automation speaks.
  onlyIn('chromium')('are accessible in the dark colour scheme', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    try {
      // On a light page, as when the device is dark but the merchant's page is not.
      const root = await fixture<HTMLDivElement>(html`<div>
        ${page()}
        <coupon-claim campaign-id="no-such-campaign"></coupon-claim>
        <campaign-carousel business-account-id="biz-without-campaigns" label="Partner campaigns"></campaign-carousel>
      </div>`);
      await settled(root);
      expect(
        root.querySelectorAll('coupon-claim')[1]!.shadowRoot!.querySelector('[part~="retry-button"]'),
      ).to.not.equal(null);
      const price = root.querySelector('campaign-carousel')!.shadowRoot!.querySelector('[part~="price"]')!;
      expect(getComputedStyle(price).color).to.equal('rgb(110, 168, 254)');
      await expect(root).to.be.accessible();
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('take the page’s font, --loyalty-* custom properties and ::part rules', async () => {
    const style = document.createElement('style');
    style.textContent = `
      .brand { font-family: Georgia, serif; --loyalty-color-primary: rgb(15, 118, 110); --loyalty-radius: 2px; }
      .brand campaign-carousel::part(title) { text-transform: uppercase; }
      .brand coupon-claim::part(claim-button) { letter-spacing: 3px; }
    `;
    document.head.append(style);
    try {
      const root = await fixture<HTMLDivElement>(html`<div class="brand">${page()}</div>`);
      await settled(root);
      const carousel = root.querySelector('campaign-carousel')!.shadowRoot!;
      expect(getComputedStyle(carousel.querySelector('[part~="title"]')!).fontFamily).to.equal('Georgia, serif');
      expect(getComputedStyle(carousel.querySelector('[part~="title"]')!).textTransform).to.equal('uppercase');
      expect(getComputedStyle(carousel.querySelector('[part~="price"]')!).color).to.equal('rgb(15, 118, 110)');
      const button = root.querySelector('coupon-claim')!.shadowRoot!.querySelector('[part~="claim-button"]')!;
      expect(getComputedStyle(button).backgroundColor).to.equal('rgb(15, 118, 110)');
      expect(getComputedStyle(button).letterSpacing).to.equal('3px');
      expect(getComputedStyle(button).borderTopLeftRadius).to.equal('2px');
      const card = root.querySelector('business-directory')!.shadowRoot!.querySelector('[part~="card"]')!;
      expect(getComputedStyle(card).fontFamily).to.equal('Georgia, serif');
      await expect(root).to.be.accessible();
    } finally {
      style.remove();
    }
  });
});
