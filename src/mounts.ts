/**
 * The sanitizer-proof form of the elements, for CMS editors whose markup is filtered: WordPress's
 * kses for Authors and Editors, TinyMCE's Visual tab, and most CMSs' HTML filters remove unknown
 * tags but keep a `div` with `data-*` attributes. The script tag turns each mount into its element:
 *
 * @example
 * ```html
 * <div data-loyalty-widget="campaign-carousel" data-limit="6" data-business-account-id="biz-1"></div>
 * <!-- becomes, inside the same div: -->
 * <campaign-carousel limit="6" business-account-id="biz-1"></campaign-carousel>
 * ```
 *
 * The element goes inside the mount, in place of what the editor wrote there (a fallback text, or
 * the `&nbsp;` an editor adds to an empty block), so the mount keeps its place in the page's flow
 * and its `class`, `style` and `lang`. Only the element's own attributes (and `lang`, `dir`) are
 * carried over: anything else (`data-onclick`, `data-style`) is left out and named in the console.
 * A mount gives no sign-in settings (`data-authority`, `data-client-id`, `data-redirect-uri`,
 * `data-storage`): those are the merchant's, in the head; a mount's are left out and the console says
 * where they go.
 * A widget name that is not one of the four shows the elements' own set-up message in the mount, and
 * says why in the console, once. Mounts added to the page later are turned too. A mount the server
 * printed with its first page inside shows it already: its element's code loads once the page shows
 * it, so it never competes with what the shopper sees first.
 */
import { resolveLang } from './shared/i18n.ts';
import { ELEMENT_TAGS, MOUNT_ATTRIBUTE, mountedTag, printedFirstPage, type ElementTag } from './shared/tags.ts';
import { warnOnce } from './shared/warn.ts';
import { newElement, pageRoot, queryAll } from './shared/page.ts';

/** Global attributes a mount may pass on besides the element's own. */
const GLOBAL_ATTRIBUTES = ['lang', 'dir'];
/** Where the sign-in goes and where its session is kept: read from the head only, never from a mount. */
const SIGN_IN_SETTINGS = ['authority', 'client-id', 'redirect-uri', 'storage'];

/** Mounts already turned (or refused), so a mount moved in the page is not turned twice. */
const handled = new WeakSet<Element>();

/**
 * Turns every mount on the page into its element, now and whenever one is added (or an existing
 * `div` is given the attribute). `load` starts loading an element's module. Loaded by the script tag
 * once it sees a mount, which has then asked for the element's code and first page already.
 */
export function watchMounts(load: (tag: ElementTag) => void): void {
  const turnWithin = (root: Element | Document): void => {
    if (root instanceof Element && root.hasAttribute(MOUNT_ATTRIBUTE)) turn(root, load);
    for (const mount of queryAll(root, `[${MOUNT_ATTRIBUTE}]`)) turn(mount, load);
  };
  turnWithin(document);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') turnWithin(record.target as Element);
      else for (const node of record.addedNodes) if (node instanceof Element) turnWithin(node);
    }
  }).observe(pageRoot(), {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: [MOUNT_ATTRIBUTE],
  });
}

/**
 * Settles once the page has painted a first page its server printed, its images that load at once
 * included (or after 3 s, whichever comes first): the element's code, which only takes over what is
 * already shown, then never takes the network from what the shopper sees first.
 */
function printedShown(printed: Element): Promise<unknown> {
  const loading = [...queryAll<HTMLImageElement>(printed, 'img:not([loading="lazy" i])')]
    .filter((image) => !image.complete)
    .map(
      (image) =>
        new Promise((resolve) => {
          image.addEventListener('load', resolve, { once: true });
          image.addEventListener('error', resolve, { once: true });
        }),
    );
  return Promise.race([Promise.all(loading), new Promise((resolve) => setTimeout(resolve, 3000))]).then(
    () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))),
  );
}

function turn(mount: Element, load: (tag: ElementTag) => void): void {
  if (handled.has(mount)) return;
  handled.add(mount);
  const tag = mountedTag(mount);
  if (!tag) {
    const name = (mount.getAttribute(MOUNT_ATTRIBUTE) ?? '').trim().toLowerCase();
    warnOnce(mount, `${MOUNT_ATTRIBUTE}="${name}" names no widget; use one of ${ELEMENT_TAGS.join(', ')}.`);
    void import('./mount-error.ts').then(({ showSetupError }) => showSetupError(mount, resolveLang(mount)));
    return;
  }
  const printed = printedFirstPage(mount);
  if (printed) void printedShown(printed).then(() => load(tag));
  else load(tag);
  // The element's class says which attributes it reads; only those are carried over.
  void customElements.whenDefined(tag).then((ctor) => {
    const own = ((ctor as unknown as { observedAttributes?: string[] }).observedAttributes ?? []).filter(
      (attribute) => !SIGN_IN_SETTINGS.includes(attribute),
    );
    const accepted = new Set([...own, ...GLOBAL_ATTRIBUTES]);
    const element = newElement(tag);
    const refused: string[] = [];
    const signIn: string[] = [];
    for (const { name: attribute, value } of mount.attributes) {
      if (!attribute.startsWith('data-') || attribute === MOUNT_ATTRIBUTE) continue;
      const bare = attribute.slice('data-'.length);
      if (accepted.has(bare)) element.setAttribute(bare, value);
      else (SIGN_IN_SETTINGS.includes(bare) ? signIn : refused).push(attribute);
    }
    if (signIn.length)
      warnOnce(
        element,
        `from a ${MOUNT_ATTRIBUTE} mount: ${signIn.join(', ')} left out. A mount gives no sign-in settings: put them in the head as <meta name="loyalty-${SIGN_IN_SETTINGS.join('">, <meta name="loyalty-')}">.`,
      );
    if (refused.length) {
      warnOnce(
        element,
        `from a ${MOUNT_ATTRIBUTE} mount: ${refused.join(', ')} ${refused.length > 1 ? 'are' : 'is'} not among its attributes (${[...own].map((a) => `data-${a}`).join(', ')}) and ${refused.length > 1 ? 'were' : 'was'} left out.`,
      );
    }
    // A first page laid out in the flow (src/reserved-space.ts) is as tall as the element's content:
    // the element's loading view keeps that height until its content, from the same answer, arrives.
    if (printed) element.style.setProperty('--_printed-size', `${printed.getBoundingClientRect().height}px`);
    mount.replaceChildren(element);
  });
}
