/**
 * WCAG 1.4.11 (non-text contrast) for the keyboard focus indicator: on every control of every
 * element, in each theme the demo shows and in merchants' colours, the ring stands out at least 3:1
 * from the control and from what surrounds it. Measured on computed colours, not on pixels.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/campaign-carousel/index.ts';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/loyalty-signin-button/index.ts';
import { session } from '../../../src/connect/session.ts';
import { onlyIn } from '../engine.ts';
import { showsOneOf } from '../parts.ts';
import { clearStoredClaims } from '../marketing/helpers.ts';
import { composedClosest, focusContrast, shadowRootsIn, type FocusContrast } from './measure.ts';
import { demoStyles, demoThemes, keepCoupon, KEPT_CAMPAIGN, marketingElements, shopper } from './themes.ts';

const ELEMENTS = 'campaign-carousel, coupon-claim, business-directory, loyalty-signin-button';

async function settled(root: Element): Promise<void> {
  for (const el of root.querySelectorAll(ELEMENTS)) {
    if (el.localName === 'loyalty-signin-button') continue;
    await showsOneOf(el, ['slide', 'card', 'claim-button', 'copy-button', 'signin-button', 'error', 'empty']);
  }
  // A carousel with claims waits for its slides' claim buttons too.
  for (const claim of shadowRootsIn(root).flatMap((scope) => [...scope.querySelectorAll('coupon-claim')]))
    await showsOneOf(claim, ['claim-button', 'copy-button', 'error', 'message', 'signin-button']);
}

/** Every control a keyboard reaches inside the elements' shadow roots. */
function controls(root: Element): HTMLElement[] {
  return shadowRootsIn(root)
    .filter((scope) => scope instanceof ShadowRoot)
    .flatMap((scope) => [
      ...scope.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'),
    ])
    .filter((el) => !composedClosest(el, '[inert]') && el.getClientRects().length > 0);
}

const nameOf = (el: HTMLElement) =>
  `<${(el.getRootNode() as ShadowRoot).host.localName}> ${el.getAttribute('part') ?? el.className ?? el.localName}`;

/** Focuses each control from the keyboard's modality and measures its ring: the weakest of each kind. */
async function measureRings(theme: string, root: Element): Promise<Map<string, FocusContrast>> {
  const weakest = new Map<string, FocusContrast>();
  for (const control of controls(root)) {
    control.focus({ preventScroll: true });
    if (!control.matches(':focus-visible')) await sendKeys({ press: 'Shift' });
    expect(control.matches(':focus-visible'), `${nameOf(control)} shows focus`).to.equal(true);
    const measured = focusContrast(control);
    const key = `${theme} | ${nameOf(control)}`;
    const before = weakest.get(key);
    if (!before || Math.min(measured.control, measured.surroundings) < Math.min(before.control, before.surroundings))
      weakest.set(key, measured);
  }
  (document.activeElement as HTMLElement | null)?.blur();
  return weakest;
}

function report(rings: Map<string, FocusContrast>): string[] {
  const failures: string[] = [];
  for (const [key, m] of rings) {
    const line = `${key} | ring ${m.ring} | ${m.control.toFixed(2)}:1 vs control ${m.controlColor} | ${m.surroundings.toFixed(2)}:1 vs surroundings ${m.surroundingsColor}`;
    console.log(`focus ring: ${line}`);
    if (m.control < 3 || m.surroundings < 3) failures.push(line);
  }
  return failures;
}

describe('the focus ring (WCAG 1.4.11)', () => {
  let removeStyles: () => void;
  before(async () => (removeStyles = await demoStyles()));
  after(() => removeStyles());
  beforeEach(() => {
    clearStoredClaims();
    keepCoupon(KEPT_CAMPAIGN);
  });
  afterEach(() => session.set(null, 'signout'));

  for (const theme of demoThemes) {
    it(`stands out 3:1 from every control and its surroundings: ${theme.name}`, async () => {
      const root = await fixture<HTMLDivElement>(html`<div>${theme.template()}</div>`);
      await settled(root);
      const rings = await measureRings(theme.name, root);
      if (root.querySelector('loyalty-signin-button')) {
        session.set(shopper, 'signin');
        await root.querySelector<HTMLElement & { updateComplete: Promise<unknown> }>('loyalty-signin-button')!
          .updateComplete;
        for (const [key, value] of await measureRings(`${theme.name}, signed in`, root)) rings.set(key, value);
      }
      expect(rings.size, 'controls measured').to.be.greaterThan(0);
      expect(report(rings)).to.deep.equal([]);
    });
  }

  // A merchant's colours, however they clash with the ring: the page's own colour as the primary,
  // a mid grey that is neither light nor dark, a black surface, a saturated yellow.
  const merchantColours = [
    '--loyalty-color-primary: #faf7f2; --loyalty-color-on-primary: #2b2118',
    '--loyalty-color-primary: #767676; --loyalty-color-surface: #767676; background: #767676',
    '--loyalty-color-primary: #ffd400; --loyalty-color-surface: #000000; --loyalty-color-text: #ffffff; background: #000',
    '--loyalty-color-primary: #0b1f3a; --loyalty-color-surface: #0b1f3a; --loyalty-color-text: #fff; background: #0b1f3a',
  ];
  for (const colours of merchantColours) {
    it(`holds in a merchant's colours: ${colours}`, async () => {
      const root = await fixture<HTMLDivElement>(html`<div style=${colours}>${marketingElements()}</div>`);
      await settled(root);
      expect(report(await measureRings(colours, root))).to.deep.equal([]);
    });
  }

  // Media emulation goes through the DevTools protocol, which only Chromium's automation speaks.
  onlyIn('chromium')('holds in the shopper’s dark colour scheme on the default theme', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    try {
      const root = await fixture<HTMLDivElement>(html`<div style="background: #0d1117">${marketingElements()}</div>`);
      await settled(root);
      expect(report(await measureRings('prefers-color-scheme: dark', root))).to.deep.equal([]);
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });
});
