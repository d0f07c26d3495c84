/**
 * What the WordPress tests do as people do it: log in as a role, place widgets through the block
 * editor's own data API (what its inserter and Publish button call), read the PHP log.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningWordPress, WordPressUser } from './wordpress.ts';

export const TAGS = ['loyalty-signin-button', 'campaign-carousel', 'coupon-claim', 'business-directory'] as const;
export const LATTE = 'camp-harbor-morning-latte';

/** What each widget shows once it has loaded (a part in its shadow root). */
export const SETTLED_PART: Record<(typeof TAGS)[number], string> = {
  'loyalty-signin-button': 'button',
  'campaign-carousel': 'slide',
  'coupon-claim': 'claim-button',
  'business-directory': 'card',
};

/** A block for each widget, with attributes set in its controls. */
export const WIDGET_BLOCKS: [string, Record<string, unknown>][] = [
  ['loyalty-widgets/loyalty-signin-button', {}],
  ['loyalty-widgets/campaign-carousel', { businessAccountId: 'biz-harbor-coffee', limit: 2, currency: 'EUR' }],
  ['loyalty-widgets/coupon-claim', { campaignId: LATTE }],
  ['loyalty-widgets/business-directory', { limit: 3 }],
];

/** The same four as shortcodes, and as the sanitizer-proof mounts. */
export const WIDGET_SHORTCODES = [
  '[loyalty_signin_button]',
  '[loyalty_campaign_carousel business_account_id="biz-harbor-coffee" limit="2"]',
  `[loyalty_coupon_claim campaign_id="${LATTE}"]`,
  '[loyalty_business_directory limit="3"]',
];
export const WIDGET_MOUNTS = [
  '<div data-loyalty-widget="loyalty-signin-button"></div>',
  '<div data-loyalty-widget="campaign-carousel" data-business-account-id="biz-harbor-coffee" data-limit="2"></div>',
  `<div data-loyalty-widget="coupon-claim" data-campaign-id="${LATTE}"></div>`,
  '<div data-loyalty-widget="business-directory" data-limit="3"></div>',
];

/**
 * Logs `user` in through WordPress's own form. When WordPress shows the form again instead of the
 * dashboard, what it said is kept, the form is filled once more, and a second refusal fails with it.
 */
export async function logIn(browser: Browser, wp: RunningWordPress, user: WordPressUser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const refusals: string[] = [];
  while (!page.url().includes('/wp-admin/')) {
    assert.ok(refusals.length < 2, `WordPress refused ${user.login}'s login twice: ${refusals.join(' / ')}`);
    await page.goto(`${wp.url}/wp-login.php`);
    await page.fill('#user_login', user.login);
    await page.fill('#user_pass', user.password);
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/wp-login.php'),
    );
    await page.click('#wp-submit');
    if ((await answered).status() === 302) await page.waitForURL(/wp-admin/);
    else {
      await page.waitForLoadState();
      refusals.push(
        (
          (await page
            .locator('#login_error')
            .textContent({ timeout: 2000 })
            .catch(() => null)) ?? 'no message'
        ).trim(),
      );
    }
  }
  await page.close();
  return context;
}

/**
 * Opens the block editor as the logged-in user, inserts these blocks and publishes the post (or submits
 * it for review) through the editor's data stores, as its inserter and buttons do; returns the post's id.
 */
export async function publishWithBlockEditor(
  context: BrowserContext,
  wp: RunningWordPress,
  title: string,
  blocks: [string, Record<string, unknown>][],
  status: 'publish' | 'pending' = 'publish',
): Promise<number> {
  const page = await context.newPage();
  await page.goto(`${wp.url}/wp-admin/post-new.php`);
  await page.waitForFunction(() => {
    const w = window as unknown as { wp?: { blocks?: { getBlockType(name: string): unknown } } };
    return Boolean(w.wp?.blocks?.getBlockType('loyalty-widgets/coupon-claim'));
  });
  const id = await page.evaluate(
    async ({ title, blocks, status }) => {
      const { wp } = window as unknown as {
        wp: {
          blocks: { createBlock(name: string, attributes: Record<string, unknown>): unknown };
          data: {
            dispatch(store: string): Record<string, (...args: unknown[]) => Promise<unknown>>;
            select(store: string): Record<string, (...args: unknown[]) => unknown>;
          };
        };
      };
      await wp.data.dispatch('core/block-editor').insertBlocks!(
        blocks.map(([name, attributes]) => wp.blocks.createBlock(name, attributes)),
      );
      await wp.data.dispatch('core/editor').editPost!({ title, status });
      await wp.data.dispatch('core/editor').savePost!();
      const failed = wp.data.select('core/editor').didPostSaveRequestFail!();
      if (failed) throw new Error('saving the post failed');
      return wp.data.select('core/editor').getCurrentPostId!() as number;
    },
    { title, blocks, status },
  );
  await page.close();
  assert.ok(id > 0);
  return id;
}

/**
 * Waits until `count` elements of each of these tags are on the page (a mount becomes its element
 * only once the mounts' code has arrived, after the blocks' elements may have settled) and each shows
 * its loaded part.
 */
export async function widgetsSettle(page: Page, tags: readonly (typeof TAGS)[number][], count = 1): Promise<void> {
  for (const tag of tags) {
    await page
      .waitForFunction(([tag, count]) => document.querySelectorAll(tag).length >= count, [tag, count] as const, {
        timeout: 15_000,
      })
      .catch(() => undefined);
    const elements = await page.locator(tag).count();
    assert.equal(elements, count, `${count} <${tag}> on the page`);
    for (let index = 0; index < elements; index++) {
      await page.locator(tag).nth(index).locator(`[part~="${SETTLED_PART[tag]}"]`).first().waitFor({ timeout: 15_000 });
    }
  }
}

/**
 * What WordPress itself logs when WordPress.org cannot be reached, as on any offline or firewalled host:
 * its update checks' "could not establish a secure connection" warning (wp-includes/update.php) and
 * SimplePie's notice for a feed of wordpress.org it could not fetch. Only in WordPress's own files.
 */
const WORDPRESS_OFFLINE = [
  /Something may be wrong with WordPress\.org .* in \S*\/wp-includes\/update\.php on line \d+$/,
  /A feed could not be found at `https?:\/\/([a-z0-9-]+\.)*wordpress\.org\/[^`]*`.* in \S*\/wp-includes\/class-simplepie\.php on line \d+$/,
];

/**
 * PHP's log lines that fail a test: any notice, warning or error, and deprecations in the plugin's own
 * files. (WordPress 6.1 itself logs deprecations on PHP 8.2, in its own files; those are WordPress's.)
 * What WordPress logs of its own offline answers (WORDPRESS_OFFLINE) is WordPress's too, never a line
 * that names the plugin's files.
 */
export function problemsIn(log: string): string[] {
  const ours = (line: string) => /plugins\/loyalty-widgets\//.test(line);
  return log
    .split('\n')
    .filter((line) => /PHP (Notice|Warning|Fatal error|Parse error|Recoverable|Deprecated)/.test(line))
    .filter((line) => !/PHP Deprecated/.test(line) || ours(line))
    .filter((line) => ours(line) || !WORDPRESS_OFFLINE.some((pattern) => pattern.test(line)));
}

/**
 * HTML with the characters the plugin writes as references against WordPress's content filters
 * (integrations/wordpress/includes/first-page/shield.php) written out again: what a browser reads from
 * it, the same text and the same JSON, as bytes to compare with the Node renderer's.
 */
export function unshielded(html: string): string {
  return html
    .replace(/&#(91|93|45|96|40|58|59|46|120|56|87);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replaceAll('\\u005b', '[')
    .replaceAll('\\u005d', ']');
}
