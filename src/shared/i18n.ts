import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Messages } from './messages.ts';
import { pageRegistry } from './page-registry.ts';
import { pageRoot, queryAll } from './page.ts';

export type { Messages };

/**
 * The elements' own strings, by lowercase language (English registered by each element as it loads,
 * the other built-in languages loaded on demand from `src/locales/`), and the merchant's, which win
 * over them whenever they arrive: kept on the page, so every copy of this module on it reads the same
 * (src/shared/page-registry.ts).
 */
const { builtIn, overrides, loading, listeners } = pageRegistry();
const builtInLocales = new Map<string, () => Promise<{ default: Messages }>>([
  ['fr', () => import('../locales/fr.ts')],
  ['ar', () => import('../locales/ar.ts')],
]);
let observer: MutationObserver | undefined;
let inlineMessagesRead = false;

/**
 * Adds or overrides strings for one or more languages, e.g.
 * `registerMessages({ de: { 'signin.label': 'Anmelden' } })`. What a merchant registers wins over
 * the elements' own strings, whether the elements load before or after. Without a build step the
 * same is done with `<script type="application/json" data-loyalty-messages="de">{...}</script>`.
 */
export function registerMessages(byLocale: Record<string, Messages>): void {
  for (const [locale, messages] of Object.entries(byLocale)) merge(overrides, locale, messages);
  notify();
}

/** An element's English strings, registered when its module loads. */
export function registerBuiltInMessages(english: Messages): void {
  merge(builtIn, 'en', english);
  notify();
}

function merge(into: Map<string, Messages>, locale: string, messages: Messages): void {
  const key = locale.toLowerCase();
  into.set(key, { ...into.get(key), ...messages });
}

/** The language and its shorter forms, most specific first: `fr-ca` gives `fr-ca`, `fr`. */
function languageChain(lang: string): string[] {
  const parts = lang.toLowerCase().split('-');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('-'));
}

/**
 * Starts loading the built-in strings a language needs (French for `fr-CA`) and returns a promise
 * until they are in; undefined when there is nothing to wait for. A catalog that cannot be loaded
 * is reported once and the elements go on in English.
 */
export function loadBuiltInMessages(lang: string): Promise<void> | undefined {
  const pending: Promise<void>[] = [];
  for (const key of languageChain(lang)) {
    const load = builtInLocales.get(key);
    if (!load || builtIn.has(key)) continue;
    let promise = loading.get(key);
    if (!promise) {
      promise = load().then(
        (module) => {
          merge(builtIn, key, module.default);
          notify();
        },
        (error: unknown) => {
          builtIn.set(key, {});
          console.warn(`loyalty-widgets: the "${key}" strings could not be loaded; showing English.`, error);
        },
      );
      loading.set(key, promise);
    }
    pending.push(promise);
  }
  return pending.length ? Promise.all(pending).then(() => undefined) : undefined;
}

function readInlineMessages(): void {
  if (inlineMessagesRead || typeof document === 'undefined') return;
  inlineMessagesRead = true;
  for (const script of queryAll<HTMLScriptElement>(
    document,
    'script[type="application/json"][data-loyalty-messages]',
  )) {
    const locale = script.dataset.loyaltyMessages?.trim();
    if (!locale) continue;
    try {
      const parsed: unknown = JSON.parse(script.textContent ?? '');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const messages: Messages = {};
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') messages[k] = v;
        registerMessages({ [locale]: messages });
      }
    } catch {
      console.warn(`loyalty-widgets: the data-loyalty-messages="${locale}" block is not valid JSON and was ignored.`);
    }
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** `lang` values already read (a page has few), with what they came to. */
const wellFormedTags = new Map<string, string | undefined>();

/**
 * A `lang` value as a well-formed BCP 47 tag: CMS output such as `en_US` becomes `en-US`; a value
 * that is no language tag at all gives undefined, since Intl formatters would throw on it.
 */
function wellFormed(lang: string): string | undefined {
  if (!lang) return undefined;
  if (wellFormedTags.has(lang)) return wellFormedTags.get(lang);
  const tag = canonicalTag(lang);
  if (wellFormedTags.size >= 64) wellFormedTags.clear();
  wellFormedTags.set(lang, tag);
  return tag;
}

function canonicalTag(lang: string): string | undefined {
  for (const candidate of [lang.trim(), lang.trim().replaceAll('_', '-')]) {
    try {
      const [tag] = Intl.getCanonicalLocales(candidate);
      if (tag) return tag;
    } catch {
      // Not a language tag; try the next spelling.
    }
  }
  return undefined;
}

/**
 * The language in force for an element: its own or nearest ancestor's `lang` (across shadow roots),
 * then the document's, then English. A `lang` that is not a language tag is passed over.
 */
export function resolveLang(element: Element): string {
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element) {
      const lang = wellFormed(node.getAttribute('lang') ?? '');
      if (lang) return lang;
    }
    node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
  }
  return 'en';
}

/** The catalogs for a BCP 47 tag, best first: `fr-CA` falls back to `fr`, anything unknown to English. */
function catalogChain(lang: string): Messages[] {
  const chain: Messages[] = [];
  for (const key of new Set([...languageChain(lang), 'en'])) {
    for (const catalogs of [overrides, builtIn]) {
      const found = catalogs.get(key);
      if (found) chain.push(found);
    }
  }
  return chain;
}

/** Fills `{name}` placeholders. Values are inserted as text by Lit, never as HTML. */
function formatMessage(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Translates one message id for a language; the id itself is returned when no catalog has it. */
export function translate(lang: string, id: string, params?: Record<string, string | number>): string {
  readInlineMessages();
  for (const messages of catalogChain(lang)) {
    const text = messages[id];
    if (text !== undefined) return formatMessage(text, params);
  }
  return id;
}

function ensureObserver(): void {
  if (observer || typeof document === 'undefined') return;
  observer = new MutationObserver(notify);
  observer.observe(pageRoot(), { attributes: true, attributeFilter: ['lang', 'dir'], subtree: true });
}

/**
 * Gives an element its strings in the language in force where it stands, and re-renders it when a
 * `lang` attribute changes on it, an ancestor or the document, or when strings are registered.
 */
export class LocaleController implements ReactiveController {
  private readonly host: ReactiveControllerHost & HTMLElement;
  private readonly onChange = (): void => this.host.requestUpdate();

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  hostConnected(): void {
    ensureObserver();
    listeners.add(this.onChange);
  }

  hostDisconnected(): void {
    listeners.delete(this.onChange);
  }

  /** The BCP 47 language tag in force for the host. */
  get lang(): string {
    return resolveLang(this.host);
  }

  /**
   * Starts loading the built-in strings of the language in force; a promise until they are in.
   * Elements wait for it before rendering, so a French page never flashes English first.
   */
  ready(): Promise<void> | undefined {
    return loadBuiltInMessages(this.lang);
  }

  /**
   * Runs a host's update once its strings are in: `scheduleUpdate()` is overridden as
   * `return this.locale.whenReady(() => super.scheduleUpdate());`.
   */
  whenReady(update: () => void | Promise<unknown>): void | Promise<unknown> {
    const pending = this.ready();
    return pending ? pending.then(update) : update();
  }

  /** Translated text for a message id. */
  t(id: string, params?: Record<string, string | number>): string {
    return translate(this.lang, id, params);
  }

  /** Whether the host lays out right to left (from `dir` in the page, as the browser computed it). */
  get rtl(): boolean {
    return getComputedStyle(this.host).direction === 'rtl';
  }
}
