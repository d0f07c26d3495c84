/**
 * Layout tests in Playwright run once per font family (font-families.ts): each page is shown in the
 * family, and a test fails when Chromium drew it in another font (the family is not installed).
 */
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import type { FontFamily } from './font-families.ts';

export { FONT_FAMILIES, type FontFamily } from './font-families.ts';

/**
 * Shows every page of `context` in `font`: a rule at the start of each HTML document gives every
 * element of the page that family (the elements' shadow content inherits it from its host).
 */
export async function showPagesIn(context: BrowserContext, font: FontFamily): Promise<void> {
  const rule = `<style>*, ::before, ::after { font-family: "${font.family}" !important; }</style>`;
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const body = (await response.text()).replace(/<head[^>]*>/i, (head) => `${head}${rule}`);
    await route.fulfill({ response, body });
  });
}

/** Fails unless the page's text is drawn in `font` (Chromium names the platform font it used). */
export async function assertDrawnIn(page: Page, font: FontFamily): Promise<void> {
  // Laid out and painted before Chromium is asked which font it drew the text in.
  await page.evaluate(async () => {
    const probe = document.createElement('span');
    probe.id = 'font-probe';
    probe.textContent = 'Font probe';
    document.body.append(probe);
    probe.getBoundingClientRect();
    await new Promise(requestAnimationFrame);
  });
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#font-probe' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    const drawnIn = fonts.map((used) => used.familyName);
    assert.deepEqual(
      drawnIn,
      [font.family],
      `the page was to be drawn in ${font.family} but was drawn in ${drawnIn.join(', ')}: install ${font.debianPackage}`,
    );
  } finally {
    await cdp.detach();
    await page.evaluate(() => document.getElementById('font-probe')?.remove());
  }
}
