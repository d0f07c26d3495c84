/**
 * `<loyalty-launcher>` closed and open, signed out and in, in English and in Arabic right to left:
 * axe (WCAG 2.2 A/AA) inside its shadow roots, its focus rings' contrast, and at 320 CSS px (where it
 * is the full-screen sheet) with the text-spacing override: nothing cut off, nothing wider than the screen.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/loyalty-launcher/index.ts';
import type { LoyaltyLauncher } from '../../../src/elements/loyalty-launcher/index.ts';
import { session } from '../../../src/connect/session.ts';
import { clearStoredClaims, testShopper } from '../marketing/helpers.ts';
import { part, showsOneOf } from '../parts.ts';
import { contentOf, dialogOf, inPanel, waitOpen } from '../launcher/helpers.ts';
import { axeViolations, focusContrast } from './measure.ts';

async function settledPanel(launcher: LoyaltyLauncher): Promise<void> {
  await launcher.open();
  await waitOpen(launcher);
  // Measured as shown, not halfway through its fade-in.
  await Promise.all(
    dialogOf(launcher)!
      .getAnimations()
      .map((animation) => animation.finished),
  );
  for (const el of contentOf(launcher).shadowRoot!.querySelectorAll(
    'campaign-carousel, business-directory, coupon-claim',
  ))
    await showsOneOf(el, ['slide', 'card', 'empty', 'error', 'code', 'claim-button']);
}

describe('<loyalty-launcher> accessibility', () => {
  afterEach(() => {
    session.set(null, 'signout');
    clearStoredClaims();
  });

  for (const [name, lang, dir] of [
    ['English', 'en', 'ltr'],
    ['Arabic, right to left', 'ar', 'rtl'],
  ] as const) {
    it(`closed, then open signed out and signed in, has no axe violations (${name})`, async () => {
      const holder = await fixture<HTMLDivElement>(
        html`<div lang=${lang} dir=${dir}><loyalty-launcher></loyalty-launcher></div>`,
      );
      const launcher = holder.querySelector('loyalty-launcher')!;
      await launcher.updateComplete;
      await waitUntil(() => part(launcher, 'label')!.textContent === (lang === 'ar' ? 'المكافآت' : 'Rewards'));
      expect(await axeViolations(holder), 'closed').to.deep.equal([]);
      await settledPanel(launcher);
      expect(await axeViolations(holder), 'open, signed out').to.deep.equal([]);
      session.set(testShopper('a11y-launcher'), 'signin');
      await contentOf(launcher).updateComplete;
      await settledPanel(launcher);
      expect(await axeViolations(holder), 'open, signed in').to.deep.equal([]);
      if (dir === 'rtl') {
        const box = part(launcher, 'button')!.getBoundingClientRect();
        expect(Math.round(box.left), 'bottom-end is bottom left right to left').to.be.within(8, 24);
        expect(inPanel(launcher, '[part~="title"]')!.textContent).to.equal('المكافآت');
      }
      await launcher.close();
    });
  }

  it('its button and close button show focus rings at least 3:1 against what is around them', async () => {
    const launcher = await fixture<LoyaltyLauncher>(html`<loyalty-launcher></loyalty-launcher>`);
    await launcher.updateComplete;
    await launcher.open();
    await waitOpen(launcher);
    for (const control of [part(launcher, 'button')!, inPanel(launcher, '[part~="close-button"]')!]) {
      control.focus();
      const found = focusContrast(control);
      expect(
        found.surroundings,
        `${control.getAttribute('part')}: ${found.ring} on ${found.surroundingsColor}`,
      ).to.be.at.least(3);
    }
    await launcher.close();
  });

  it('at 320px, with text spacing, the open sheet cuts off no text and is no wider than the screen', async () => {
    const frame = Object.assign(document.createElement('iframe'), {
      src: '/test/browser/fixtures/launcher-page.html?width=320',
      title: 'shop',
    });
    frame.style.cssText = 'inline-size: 320px; block-size: 640px; border: 0';
    document.body.append(frame);
    try {
      await waitUntil(() => frame.contentWindow?.customElements.get('loyalty-launcher'), 'not loaded', {
        timeout: 10_000,
      });
      const launcher = frame.contentDocument!.querySelector('loyalty-launcher') as LoyaltyLauncher;
      await settledPanel(launcher);
      // The page's own copy of the measures, whose instanceof checks are the page's.
      const measure = (await (frame.contentWindow as unknown as { Function: FunctionConstructor }).Function(
        'return import("/test/browser/a11y/measure.ts")',
      )()) as typeof import('./measure.ts');
      const restore = measure.applyTextSpacing(launcher);
      try {
        const dialog = dialogOf(launcher)!;
        expect(dialog.matches(':modal')).to.equal(true);
        expect(dialog.scrollWidth, 'no sideways scrolling').to.be.at.most(dialog.clientWidth);
        expect(measure.shadowRootsIn(launcher).length, 'the panel’s elements are measured').to.be.greaterThan(4);
        expect(measure.clippedText(launcher)).to.deep.equal([]);
      } finally {
        restore();
      }
    } finally {
      frame.remove();
    }
  });
});
