/** The demo site's themes, from its own style sheets, for the accessibility suite to measure in. */
import { html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { LoyaltyUser } from '../../../src/connect/session.ts';

/** Loads the demo's site.css and theming.css into this page; the returned function removes them. */
export async function demoStyles(): Promise<() => void> {
  const sheets = await Promise.all(
    ['/demo/site.css', '/demo/theming.css'].map(async (path) => {
      const response = await fetch(path);
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      const style = document.createElement('style');
      style.textContent = await response.text();
      document.head.append(style);
      return style;
    }),
  );
  return () => sheets.forEach((style) => style.remove());
}

export const shopper: LoyaltyUser = {
  sub: 'shopper-a11y',
  username: 'demo',
  loyaltyId: '0xa11y',
  accessToken: 'access-token-a11y',
  idToken: 'id-token-a11y',
  expiresAt: Date.now() + 3_600_000,
  scope: 'openid profile',
};

/** A coupon campaign whose code the tests keep beforehand (see `keepCoupon`). */
export const KEPT_CAMPAIGN = 'camp-peak-rental';

/** A coupon kept for the anonymous shopper, so the copy button shows without minting one. */
export function keepCoupon(campaignId: string, code = 'A11Y-CODE'): void {
  localStorage.setItem(
    `loyalty-widgets:coupon:anonymous:${encodeURIComponent(campaignId)}`,
    JSON.stringify({ code, claimedAt: Date.now() }),
  );
}

/** The Marketing elements in the states with controls: slides with claims and rotation, a kept code, a failure with retry, sign-in to claim, more businesses. */
export const marketingElements = (): TemplateResult => html`
  <campaign-carousel
    claim
    autoplay="60"
    limit="3"
    currency="EUR"
    business-account-id="biz-harbor-coffee"
  ></campaign-carousel>
  <div class="card">
    <coupon-claim campaign-id="camp-harbor-morning-latte" currency="EUR"></coupon-claim>
    <coupon-claim campaign-id=${KEPT_CAMPAIGN}></coupon-claim>
    <coupon-claim campaign-id="no-such-campaign"></coupon-claim>
    <coupon-claim campaign-id="camp-harbor-beans" require-signin></coupon-claim>
  </div>
  <business-directory limit="2"></business-directory>
`;

/** Each theme the demo shows, as the demo lays it out. */
export const demoThemes: { name: string; template: () => TemplateResult }[] = [
  {
    name: 'site header (dark)',
    template: () => html`<header class="site-header">
      <loyalty-signin-button authority="https://connect.example" client-id="demo-app"></loyalty-signin-button>
    </header>`,
  },
  { name: 'default, on the page', template: () => html`<main>${marketingElements()}</main>` },
  { name: 'brand colour', template: () => html`<section class="theme-brand">${marketingElements()}</section>` },
  { name: 'dark section', template: () => html`<section class="theme-dark">${marketingElements()}</section>` },
];
