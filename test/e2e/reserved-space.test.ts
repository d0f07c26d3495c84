/**
 * The script tag holds, for each element not yet defined, the space its loading skeleton then takes,
 * so a merchant's page does not jump when the elements arrive (cumulative layout shift); a CMS mount
 * (`<div data-loyalty-widget>`, with an editor's fallback text or none) holds the same until its
 * element is put inside it. Checked in every loading shape (carousel with and without claim, coupon
 * with and without compact), at a phone and a desktop width, in a wide and a narrow font: the element
 * chunks are held back while the reserved boxes are measured, and the Marketing proxy never answers,
 * so the elements stay on their skeletons afterwards.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { useE2eStack } from '../support/e2e.ts';
import { assertDrawnIn, FONT_FAMILIES, showPagesIn } from '../support/fonts.ts';

const shop = useE2eStack({ staticSites: { site: { demoPages: true } } });

const PAGES = {
  elements: {
    path: '/reserved-space.html',
    shapes: [
      'loyalty-signin-button',
      'campaign-carousel:not([claim])',
      'campaign-carousel[claim]',
      'coupon-claim:not([compact])',
      'coupon-claim[compact]',
      'business-directory',
    ],
  },
  'CMS mounts': {
    path: '/reserved-space-mounts.html',
    shapes: [
      '[data-loyalty-widget="loyalty-signin-button"]',
      '[data-loyalty-widget="campaign-carousel"]:not([data-claim])',
      '[data-loyalty-widget="Campaign-Carousel"][data-claim]',
      '[data-loyalty-widget="coupon-claim"]:not([data-compact])',
      '[data-loyalty-widget="coupon-claim"][data-compact]',
      '[data-loyalty-widget="business-directory"]',
    ],
  },
};

function heights(page: Page, shapes: string[]): Promise<Record<string, number>> {
  return page.evaluate(
    (shapes) =>
      Object.fromEntries(shapes.map((shape) => [shape, document.querySelector(shape)!.getBoundingClientRect().height])),
    shapes,
  );
}

describe('space reserved before the elements are defined', () => {
  for (const [kind, { path, shapes: SHAPES }] of Object.entries(PAGES))
    for (const font of FONT_FAMILIES)
      for (const width of [390, 1280]) {
        it(`${kind}: matches each loading skeleton at ${width}px in ${font.family}`, async (t) => {
          const context = await shop.browser.newContext({ viewport: { width, height: 900 } });
          await showPagesIn(context, font);
          const page = await context.newPage();
          const heldChunks: Route[] = [];
          // The script tag has run once it has asked for every element's file (which stays held here).
          let allAsked: () => void = () => {};
          const asked = new Promise<void>((resolve) => (allAsked = resolve));
          await page.route('**/dist/elements/**', (route) => {
            heldChunks.push(route);
            if (heldChunks.length === 4) allAsked();
          });
          await page.route('**/api/marketing**', () => {});
          await page.goto(`${shop.sites.site.origin}${path}`);
          await asked;
          const notShownCount = await page.evaluate(
            (shapes) =>
              shapes.filter((shape) => {
                const box = document.querySelector(shape)!;
                // A mount is turned once its element (a custom element: its name has a hyphen) is in it.
                return box.hasAttribute('data-loyalty-widget')
                  ? ![...box.children].some((child) => child.localName.includes('-'))
                  : !box.matches(':defined');
              }).length,
            SHAPES,
          );
          assert.equal(notShownCount, SHAPES.length, 'the element chunks were held back');
          const reserved = await heights(page, SHAPES);

          await page.unroute('**/dist/elements/**');
          for (const route of heldChunks) await route.continue();
          await page.waitForFunction(
            async (shapes) => {
              // The element itself, or the element a mount was turned into.
              const elements = shapes.map((shape) => {
                const box = document.querySelector(shape)!;
                return (box.hasAttribute('data-loyalty-widget') ? box.firstElementChild : box) as
                  (Element & { updateComplete?: Promise<unknown> }) | null;
              });
              if (
                !elements.every(
                  (element) =>
                    element?.matches(':defined') &&
                    element.shadowRoot?.querySelector('[part~="skeleton"], [part~="button"]'),
                )
              )
                return false;
              await Promise.all(elements.map((element) => element!.updateComplete));
              return true;
            },
            SHAPES,
            { timeout: 15_000 },
          );
          const skeletons = await heights(page, SHAPES);
          await assertDrawnIn(page, font);
          t.diagnostic(SHAPES.map((shape) => `${shape} ${skeletons[shape]}px`).join(', '));
          for (const shape of SHAPES) {
            assert.ok(reserved[shape]! > 0, `${shape} reserves no space`);
            assert.ok(
              Math.abs(reserved[shape]! - skeletons[shape]!) <= 2,
              `${shape} at ${width}px: ${reserved[shape]} reserved, ${skeletons[shape]} shown`,
            );
          }
          await context.close();
        });
      }
});
