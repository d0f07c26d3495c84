/**
 * The script-tag entry: `<script type="module" src=".../loyalty-widgets.js">`.
 *
 * It defines each element only when its tag is on the page (now or later, for pages that render
 * their HTML with JavaScript), so a page pays only for the elements it uses: lit comes with the
 * first element's files, and each Marketing element's first page of data is asked for alongside
 * them (src/first-pages.ts). The `<div data-loyalty-widget>` mounts CMS editors write are seen the
 * same way, their element's code and first page asked for at once, and the code that turns them into
 * elements (src/mounts.ts) loaded only by a page that has one. On a page whose address carries a
 * Connect sign-in response, the tokens leave the address bar at once, and only such a page loads what
 * hands the response to a popup's opener or finishes a redirect sign-in (src/sign-in-return.ts).
 * Built, it imports no other file, so each element's code and first page are asked for as soon as
 * it runs; it also holds the plumbing every element shares, which the elements' files import from
 * it (vite.config.ts). Loading it twice is harmless: the copy that runs first does the work, once per
 * page, and a tag already defined is left alone (a copy of another version holding it is reported
 * once in the console).
 * Elements inside another component's shadow root are not seen: import the per-element entry
 * (`loyalty-widgets/elements/<tag>`) there instead; it imports its plumbing from this file, which
 * then starts as well.
 */
import { captureResponseFromAddress } from './connect/response-capture.ts';
import { loadBuiltInMessages, resolveLang } from './shared/i18n.ts';
import { reservedSpaceCss } from './reserved-space.ts';
import { reportDefinedElsewhere } from './shared/define.ts';
import { isShippedScript, recordShippedCallbackPage } from './shared/callback-page.ts';
import { ELEMENT_TAGS, MOUNT_ATTRIBUTE, mountedTag, type ElementTag } from './shared/tags.ts';
import { VERSION } from './shared/version.ts';
import { prefetchFirstPage, prefetchMountFirstPage } from './first-pages.ts';
import { adoptSheet, newElement, pageHead, pageRoot, pageScripts, queryAll } from './shared/page.ts';
import { pageRegistry } from './shared/page-registry.ts';

const elementLoaders: Record<ElementTag, () => Promise<unknown>> = {
  'loyalty-signin-button': () => import('./elements/loyalty-signin-button/index.ts'),
  'campaign-carousel': () => import('./elements/campaign-carousel/index.ts'),
  'coupon-claim': () => import('./elements/coupon-claim/index.ts'),
  'business-directory': () => import('./elements/business-directory/index.ts'),
  'loyalty-launcher': () => import('./elements/loyalty-launcher/index.ts'),
};
const tags: readonly string[] = ELEMENT_TAGS;
const selector = [...tags, `[${MOUNT_ATTRIBUTE}]`].join(',');
const requested = new Set<string>();
/** The mounts' code (src/mounts.ts), loaded once the page has a mount. */
let mounts: Promise<void> | undefined;

/**
 * For each element, the files its module imports beyond this script's own, written here by the
 * build (scripts/vite-element-files.ts). Fetched together with the element's file rather than one
 * round trip after it. Unbundled (tests, the dev server) there is nothing to fetch ahead.
 */
const ELEMENT_FILES = '__LOYALTY_ELEMENT_FILES__';
const built = ELEMENT_FILES.startsWith('{');
// Not in a merchant's bundle that took this file in (an element's entry imports it): the bundle holds them.
const served = isShippedScript(new URL(import.meta.url));
const elementFiles = (built && served ? JSON.parse(ELEMENT_FILES) : {}) as Record<string, string[]>;
const preloaded = new Set<string>();

function fetchAhead(tag: string): void {
  for (const file of elementFiles[tag] ?? []) {
    const href = new URL(file, import.meta.url).href;
    if (preloaded.has(href)) continue;
    preloaded.add(href);
    const link = newElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    (pageHead() ?? pageRoot()).append(link);
  }
}

function load(tag: ElementTag): void {
  const defined = customElements.get(tag);
  // Defined by another copy of the widgets: this one's element is never loaded, but a copy of
  // another version (or another library's element) is worth telling the developer about.
  if (defined && (defined as { version?: unknown }).version !== VERSION) void reportDefinedElsewhere(tag, defined);
  if (requested.has(tag) || defined) return;
  requested.add(tag);
  fetchAhead(tag);
  elementLoaders[tag]().catch((error: unknown) => {
    requested.delete(tag);
    console.error(`loyalty-widgets: <${tag}> could not be loaded.`, error);
  });
}

/**
 * Loads an element's module and, at the same time, its first page of data and the strings of its
 * language when not English.
 */
function prepare(element: Element): void {
  prefetchFirstPage(element);
  load(element.localName as ElementTag);
  void loadBuiltInMessages(resolveLang(element));
}

/**
 * A mount's element is prepared as the element itself is, from the `data-` attributes it will be
 * given, while the mounts' code that turns it into the element loads. A mount the server printed
 * with its first page inside shows it already: the mounts' code loads its element once the page
 * shows it (src/mounts.ts).
 */
function prepareMount(mount: Element): void {
  const tag = mountedTag(mount);
  if (tag) {
    if (!prefetchMountFirstPage(mount, tag)) load(tag);
    void loadBuiltInMessages(mount.getAttribute('data-lang')?.trim() || resolveLang(mount));
  }
  mounts ??= import('./mounts.ts').then(
    ({ watchMounts }) => watchMounts(load),
    (error: unknown) => console.error(`loyalty-widgets: the ${MOUNT_ATTRIBUTE} mounts could not be loaded.`, error),
  );
}

function prepareWithin(root: Element | Document): void {
  for (const element of root instanceof Element ? [root, ...queryAll(root, selector)] : queryAll(root, selector)) {
    if (tags.includes(element.localName)) prepare(element);
    if (element.hasAttribute(MOUNT_ATTRIBUTE)) prepareMount(element);
  }
}

/**
 * Holds the elements' space (see reserved-space.ts) when this script runs before the page's first
 * paint. After it, reserving would itself move the page, at once and further than the elements do
 * one by one; pages that link dist/loyalty-widgets.css have the space held from the start anyway.
 */
function reserveSpace(): void {
  if (performance.getEntriesByType('paint').length > 0) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(reservedSpaceCss);
  adoptSheet(sheet);
}

function start(): void {
  prepareWithin(document);
  // Elements and mounts added later, and a `div` given the mount attribute later.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') prepareWithin(record.target as Element);
      else for (const node of record.addedNodes) if (node instanceof Element) prepareWithin(node);
    }
    // Once every element is defined, and the mounts' code watches for mounts, nothing is left to watch for.
    if (mounts && tags.every((tag) => customElements.get(tag))) observer.disconnect();
  });
  observer.observe(pageRoot(), {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: [MOUNT_ATTRIBUTE],
  });
}

/** What the script tag does once per page: the elements' space, a sign-in response, the elements. */
function boot(): void {
  // The built script tag ships callback.html beside it: served from this site, that page is where a
  // sign-in comes back by default, so no other script of the shop's pages sees the tokens.
  if (built)
    recordShippedCallbackPage(
      import.meta.url,
      location.origin,
      [...pageScripts()].map((script) => script.src),
    );
  reserveSpace();
  // The tokens of a sign-in response leave the address bar at once; what to do with the response is
  // loaded only on such a page. A popup hands it to its opener and closes: nothing else to do there.
  const addressResponse = captureResponseFromAddress();
  if (!addressResponse) start();
  else
    import('./sign-in-return.ts')
      .then(({ returnFromSignIn }) => returnFromSignIn(addressResponse))
      .catch((error: unknown) => {
        console.error('loyalty-widgets: the sign-in response in this page’s address could not be handled.', error);
        return false;
      })
      .then((handedOver) => handedOver || start());
}

// Another copy of this version that ran first (the script pasted twice, or this file imported by an
// element under an address without the query the page's script tag has) already does all of it.
const registry = pageRegistry();
if (!registry.started) {
  registry.started = true;
  boot();
}

/** Add or override strings for any language, e.g. `registerMessages({ de: { 'signin.label': '…' } })`. */
export { registerMessages, type Messages } from './shared/i18n.ts';
// Types only (nothing is loaded by them): the five elements, their events' details, and the tag and
// event maps they add, so `document.querySelector('coupon-claim')` and its listeners are typed for a
// page that imports only this entry.
export type {
  LoyaltySigninButton,
  LoyaltySigninDetail,
  LoyaltySigninErrorDetail,
  LoyaltySignoutDetail,
} from './elements/loyalty-signin-button/index.ts';
export type { CampaignCarousel, CampaignSelectDetail } from './elements/campaign-carousel/index.ts';
export type { CouponClaim, CouponClaimedDetail, CouponClaimErrorDetail } from './elements/coupon-claim/index.ts';
export type { BusinessDirectory } from './elements/business-directory/index.ts';
export type {
  LoyaltyLauncher,
  LauncherCloseDetail,
  LauncherOpenDetail,
  LauncherSectionDetail,
} from './elements/loyalty-launcher/index.ts';
export type { LoyaltyElement } from './elements/internal/loyalty-element.ts';
export type { MarketingElement } from './elements/internal/marketing-element.ts';
export type { Campaign, CampaignImage, CampaignObjective } from './marketing/types.ts';
export type { LoyaltyUser, SessionStorageKind } from './connect/session.ts';
export type { SignInMode } from './connect/launcher.ts';
export type { SignInErrorCode } from './connect/errors.ts';
