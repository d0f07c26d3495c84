/**
 * Helpers for the attacks a page's content can try: markup placed in the body the way a CMS prints
 * an Author's block (parsed HTML, no script of its own), and a clean page between tests.
 */
import type { LoyaltyUser } from '../../../src/connect/session.ts';
import { resetSession } from '../signin/helpers.ts';

/** A signed-in shopper as the page's session holds one (the tokens are not checked by the test proxy). */
export function aShopper(id: string): LoyaltyUser {
  return {
    sub: `shopper-${id}`,
    username: 'demo',
    loyaltyId: `0x${id}`,
    accessToken: `access-token-${id}`,
    idToken: `id-token-${id}`,
    expiresAt: Date.now() + 3_600_000,
    scope: 'openid profile',
  };
}

const blocks: HTMLElement[] = [];

/** Puts this markup in the page's body as a block of content, parsed as the browser parses a page. */
export function placeBlock(markup: string): HTMLElement {
  const block = document.createElement('div');
  block.className = 'wp-block-html';
  block.innerHTML = markup;
  document.body.append(block);
  blocks.push(block);
  return block;
}

/** The first element of this tag inside a block. */
export function inBlock<T extends Element>(block: HTMLElement, selector: string): T {
  const found = block.querySelector<T>(selector);
  if (!found) throw new Error(`no ${selector} in the block`);
  return found;
}

/** Removes every block and forgets the session, kept coupons, claim keys and pending sign-ins. */
export function clearPage(): void {
  for (const block of blocks.splice(0)) block.remove();
  resetSession();
}
