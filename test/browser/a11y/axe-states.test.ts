/**
 * axe-core with the WCAG 2.0-2.2 A and AA rules, inside the shadow roots, over every element in
 * every state a shopper meets: loading, loaded, empty, failed, signed out and in, claimed, a
 * campaign without a coupon, autoplay, right to left.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/loyalty-signin-button/index.ts';
import { session } from '../../../src/connect/session.ts';
import { clearStoredClaims, holdFetch, stubFetch } from '../marketing/helpers.ts';
import { showsOneOf } from '../parts.ts';
import { axeViolations } from './measure.ts';
import { keepCoupon, KEPT_CAMPAIGN, shopper } from './themes.ts';

const SETTLED = ['slide', 'card', 'claim-button', 'copy-button', 'signin-button', 'message', 'empty', 'error'];

/** The elements of `root` once each shows its content, its empty state or a failure. */
async function settled(root: Element): Promise<void> {
  for (const el of root.querySelectorAll('campaign-carousel, coupon-claim, business-directory'))
    await showsOneOf(el, SETTLED);
}

const counts: string[] = [];
after(() => console.log(`axe (WCAG 2.2 A/AA) violations per state:\n  ${counts.join('\n  ')}`));

async function expectNoViolations(state: string, root: Element): Promise<void> {
  const found = await axeViolations(root);
  counts.push(`${state}: ${found.length}`);
  expect(found, state).to.deep.equal([]);
}

interface State {
  name: string;
  template: () => TemplateResult;
  /** Runs before the fixture (and is undone after the test). */
  setUp?: () => (() => void) | void;
}

const states: State[] = [
  {
    name: 'carousel loaded, with claims',
    template: () => html`<campaign-carousel claim limit="4" currency="EUR"></campaign-carousel>`,
  },
  {
    name: 'carousel with autoplay',
    template: () => html`<campaign-carousel autoplay="30" limit="4"></campaign-carousel>`,
  },
  {
    name: 'carousel empty',
    template: () => html`<campaign-carousel business-account-id="biz-without-campaigns"></campaign-carousel>`,
  },
  {
    name: 'carousel right to left, in Arabic',
    template: () => html`<div dir="rtl" lang="ar"><campaign-carousel claim limit="4"></campaign-carousel></div>`,
  },
  {
    name: 'directory loaded, with more to show',
    template: () => html`<business-directory limit="2"></business-directory>`,
  },
  {
    name: 'directory empty',
    template: () => html`<business-directory category="No such category"></business-directory>`,
  },
  {
    name: 'directory right to left, in Arabic',
    template: () => html`<div dir="rtl" lang="ar"><business-directory limit="3"></business-directory></div>`,
  },
  {
    name: 'coupon ready to claim, and one with no coupon',
    template: () => html`<div>
      <coupon-claim campaign-id="camp-harbor-morning-latte" currency="EUR"></coupon-claim>
      <coupon-claim campaign-id="camp-harbor-tenth-cup"></coupon-claim>
    </div>`,
  },
  {
    name: 'coupon claimed (code and copy button)',
    setUp: () => keepCoupon(KEPT_CAMPAIGN),
    template: () => html`<coupon-claim campaign-id=${KEPT_CAMPAIGN} allow-multiple></coupon-claim>`,
  },
  {
    name: 'members’ coupon, signed out, and the sign-in button',
    template: () => html`<div>
      <loyalty-signin-button authority="https://connect.example" client-id="demo-app"></loyalty-signin-button>
      <coupon-claim campaign-id="camp-harbor-beans" require-signin></coupon-claim>
    </div>`,
  },
  {
    name: 'members’ coupon, signed in, and the signed-in button',
    setUp: () => {
      session.set(shopper, 'signin');
      return () => session.set(null, 'signout');
    },
    template: () => html`<div>
      <loyalty-signin-button authority="https://connect.example" client-id="demo-app"></loyalty-signin-button>
      <coupon-claim campaign-id="camp-harbor-beans" require-signin></coupon-claim>
    </div>`,
  },
  {
    name: 'sign-in button unavailable, and right to left',
    template: () => html`<div>
      <loyalty-signin-button authority="https://connect.example" client-id="demo-app" program="Harbor Miles" unavailable></loyalty-signin-button>
      <div dir="rtl" lang="ar"><loyalty-signin-button authority="https://connect.example" client-id="demo-app"></loyalty-signin-button></div>
    </div>`,
  },
  {
    name: 'every Marketing element failed (retry buttons)',
    setUp: () => {
      const stub = stubFetch(() =>
        Response.json({ error: { code: 'upstream_unavailable', message: 'Down.' } }, { status: 503 }),
      );
      return stub.restore;
    },
    template: () => html`<div>
      <campaign-carousel></campaign-carousel>
      <coupon-claim campaign-id="camp-harbor-morning-latte"></coupon-claim>
      <business-directory></business-directory>
    </div>`,
  },
];

describe('axe-core finds no WCAG 2.2 A/AA violation', () => {
  beforeEach(clearStoredClaims);

  it('in any element while it loads', async () => {
    const network = holdFetch();
    try {
      const root = await fixture<HTMLDivElement>(html`<div>
        <campaign-carousel claim></campaign-carousel>
        <coupon-claim campaign-id="camp-harbor-morning-latte"></coupon-claim>
        <business-directory></business-directory>
      </div>`);
      await waitUntil(() => [...root.children].every((el) => el.shadowRoot?.querySelector('[part~="skeleton"]')));
      await expectNoViolations('every element loading', root);
    } finally {
      network.release();
    }
  });

  for (const state of states) {
    it(`in ${state.name}`, async () => {
      const undo = state.setUp?.();
      try {
        const root = await fixture<HTMLDivElement>(html`<div>${state.template()}</div>`);
        await settled(root);
        await expectNoViolations(state.name, root);
      } finally {
        undo?.();
      }
    });
  }
});
