/**
 * The document as the browser made it, not as its markup names things. A `<form name="scripts">`,
 * an `<img name="head">` or an `<object id="querySelectorAll">` anywhere in the body becomes a
 * property of `document` that hides the real one, so the widgets never read `document.x` itself:
 * they read it here, through Document's and Element's own getters and methods, taken once when the
 * script starts. (Window's own properties cannot be hidden so: its named elements come after them.)
 * The list of names is what the clobbering test plants (test/e2e/page-names.test.ts).
 */
const doc = globalThis.document as Document | undefined;
const D = globalThis.Document?.prototype;
const E = globalThis.Element?.prototype;

type Getter<T> = () => T;
const getter = <T>(name: keyof Document): Getter<T> => {
  const read = D && Object.getOwnPropertyDescriptor(D, name)?.get;
  return () => read?.call(doc) as T;
};

/** The real `<head>`, or null (a page without one, or no document). */
export const pageHead: Getter<HTMLHeadElement | null> = getter('head');
/** The real root element, `<html>`. */
export const pageRoot: Getter<HTMLElement> = getter('documentElement');
/** The real `document.scripts`. */
export const pageScripts: Getter<HTMLCollectionOf<HTMLScriptElement>> = getter('scripts');

const create = D?.createElement;
/** `document.createElement(tag)`. */
export const newElement = <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] =>
  create!.call(doc, tag) as HTMLElementTagNameMap[K];

const queryDocument = D?.querySelectorAll;
const queryElement = E?.querySelectorAll;
/** `root.querySelectorAll(selector)` for the document or an element, whatever their markup names. */
export const queryAll = <T extends Element = Element>(root: Document | Element, selector: string): NodeListOf<T> =>
  (root === doc ? queryDocument : queryElement)!.call(root, selector) as NodeListOf<T>;

const sheets = D && Object.getOwnPropertyDescriptor(D, 'adoptedStyleSheets');
/** Adds a stylesheet to the document's adopted ones; false where the browser has none. */
export const adoptSheet = (sheet: CSSStyleSheet): boolean => {
  if (!sheets?.get) return false;
  sheets.set!.call(doc, [...(sheets.get.call(doc) as CSSStyleSheet[]), sheet]);
  return true;
};
