/**
 * A carousel's or a coupon's first page printed in the browser from the answer the page's head preloaded
 * (`<link rel="preload" as="fetch" crossorigin href="…">`), while the element's code is still on its
 * way: the markup a server prints inside a mount (src/proxy/render/), from the same template and display
 * model, put inside the element, where the stylesheet lays it over the space the element holds. (A
 * directory's is not: its cards are as tall as their text makes them, and a page printed after the
 * first paint would push the page below.)
 *
 * dist/first-page.js. A page may load it itself, before the script tag
 * (`<script type="module" async src=".../first-page.js">`, the README's line): it then prints every
 * such element as soon as it and the answer are here, without waiting for the script tag. Otherwise the
 * script tag loads it once it sees an element whose first page the head preloads. Either way the
 * read is asked for once (the early answers are the page's, src/marketing/prefetch.ts) and the element
 * takes the same answer. Built with its own copy of all it uses, it imports no other file.
 *
 * Display only, as a server's is: every value is escaped and every URL checked as the elements check
 * them; once the element is defined the printed page leaves, and the element shows the same answer,
 * which it checks as it checks any.
 */
import { carouselModel, couponModel, headingOf } from './marketing/first-page-display.ts';
import { printTemplate, type DisplayModel } from './marketing/first-page-markup.ts';
import { CAROUSEL_FIRST_PAGE, COUPON_FIRST_PAGE, type MarkupNode } from './marketing/first-page-template.ts';
import { dataOf } from './marketing/responses.ts';
import { peekPrefetched, preloadedRead, prefetchRead, readKey } from './marketing/prefetch.ts';
import { resolveEndpoint } from './shared/config.ts';
import { firstRequest } from './shared/first-request.ts';
import { FIRST_PAGE_ATTRIBUTE } from './shared/mount-attributes.ts';
import { newElement, queryAll } from './shared/page.ts';
import { FIRST_PAGE_OVER_HELD_SPACE } from './shared/tags.ts';

type Printed = (typeof FIRST_PAGE_OVER_HELD_SPACE)[number];

/** The servers' template and display model of each first page printed here (the directory's is not). */
const PAGES: Record<Printed, [MarkupNode[], (data: Record<string, unknown>, heading: string) => DisplayModel]> = {
  'campaign-carousel': [CAROUSEL_FIRST_PAGE, carouselModel],
  'coupon-claim': [COUPON_FIRST_PAGE, couponModel],
};

/**
 * Prints `answer` (the proxy's answer to the element's first request `operation`, as text) inside
 * `element`, unless its code is already here, it holds a printed page, or the answer is not one the
 * element would show; and only where the stylesheet (dist/loyalty-widgets.css) lays the printed page
 * over the space the element holds, so that nothing below it moves: a page without the stylesheet gets
 * none, and its first page still arrives with the script.
 */
function print(element: Element, tag: Printed, operation: string, answer: string): void {
  if (customElements.get(tag) || element.querySelector(`:scope > [${FIRST_PAGE_ATTRIBUTE}]`)) return;
  const printed = newElement('div');
  printed.setAttribute(FIRST_PAGE_ATTRIBUTE, operation);
  try {
    const [template, model] = PAGES[tag];
    // Every value in it is escaped (src/marketing/first-page-markup.ts). A page that allows no HTML
    // written from a string (Trusted Types) gets no printed page.
    printed.innerHTML = printTemplate(
      template,
      model(dataOf(JSON.parse(answer)), headingOf(element.getAttribute('heading-level'))),
    );
  } catch {
    return;
  }
  element.append(printed);
  // Read once it is in (one style calculation for both), and gone again before anything is painted.
  if (getComputedStyle(printed).position !== 'absolute') printed.remove();
  // Once the element is defined its shadow root hides what it holds; the printed page leaves too.
  else void customElements.whenDefined(tag).then(() => printed.remove());
}

/**
 * Prints the element's first page once its answer is here, when the head preloads it: only for an
 * element that reads through the merchant's endpoint (an `endpoint` written on it is body content) and
 * whose code has not arrived. The read is asked for now unless it already is, for no element: the
 * element's own request (the script tag's early one) takes it.
 */
export function printPreloaded(element: Element): void {
  const tag = element.localName as Printed;
  if (!Object.hasOwn(PAGES, tag) || element.getAttribute('endpoint')?.trim() || customElements.get(tag)) return;
  const request = firstRequest(tag, (name) => element.getAttribute(name));
  const endpoint = resolveEndpoint(undefined);
  const key = request && readKey(endpoint, ...request);
  if (!request || !key || !preloadedRead(key)) return;
  prefetchRead(endpoint, ...request, 0);
  peekPrefetched(key)
    ?.then(async (response) => {
      if (response.ok) print(element, tag, request[0], await response.text());
    })
    .catch(() => undefined);
}

// Loaded by the page itself: every element the page holds so far (the script tag hands over any later one).
if (globalThis.document)
  for (const element of queryAll(document, FIRST_PAGE_OVER_HELD_SPACE.join(','))) printPreloaded(element);
