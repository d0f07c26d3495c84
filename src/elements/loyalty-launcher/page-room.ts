/**
 * The page's scroll padding at the launcher's edge, so that what the browser scrolls into view (a
 * shopper's Tab, a link to a fragment, `scrollIntoView`) comes to rest clear of the floating button
 * rather than under it. It reserves no space: nothing in the page's flow moves, only where scrolling
 * stops. One rule per page, at zero specificity, so a page's own `scroll-padding` wins. No Lit here:
 * the launcher's button loads it.
 */
import { adoptSheet, pageRoot } from '../../shared/page.ts';

let sheet: CSSStyleSheet | undefined;
/** The launcher the rule is for (a page has one; the last measured wins). */
let holder: Element | undefined;

/**
 * Sets the padding from where `button` floats: its height and its distance from the window's nearer
 * edge, plus that distance again above it. A button not shown (hidden, not laid out) asks for none.
 */
export function makeRoom(launcher: Element, button: Element): void {
  const box = button.getBoundingClientRect();
  const view = pageRoot().clientHeight;
  const atTop = box.top < view - box.bottom;
  const room = box.height ? Math.ceil(atTop ? box.bottom + box.top : 2 * view - box.top - box.bottom) : 0;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    if (!adoptSheet(sheet)) return;
  }
  holder = launcher;
  sheet.replaceSync(room ? `:where(:root){scroll-padding-${atTop ? 'top' : 'bottom'}:${room}px}` : '');
}

/** Takes the padding away when its launcher leaves the page. */
export function releaseRoom(launcher: Element): void {
  if (holder !== launcher) return;
  holder = undefined;
  sheet?.replaceSync('');
}
