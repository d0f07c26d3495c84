import type { Messages } from './messages.ts';
import { VERSION } from './version.ts';

/**
 * What every copy of the widgets' modules on one page reads. A page can hold two copies of one
 * version: the script tag loaded under two addresses (pasted twice, or with a query the elements'
 * imports of it do not carry), or a headless entry (`loyalty-widgets/connect`, `/marketing`), which
 * has its own copies (scripts/vite-entry-copies.ts), beside the elements. A module's own variables are
 * not shared between copies, so these are kept on the page instead, under a symbol of this version
 * (two copies of one version share them; another version keeps its own). Markup cannot name a
 * symbol, so page content cannot reach them. Nothing secret is kept here: a sign-in response goes
 * from the script tag to the sign-in code by a call (src/sign-in-return.ts), never through the page.
 */
export interface PageRegistry {
  /** First pages asked for early, by endpoint + body, with how many elements will take each (src/marketing/prefetch.ts). */
  readonly early: Map<string, { answer: Promise<Response>; takers: number }>;
  /** The elements' own strings and the merchant's, by lowercase language (src/shared/i18n.ts). */
  readonly builtIn: Map<string, Messages>;
  readonly overrides: Map<string, Messages>;
  /** Built-in languages being loaded, and whom to tell when strings change. */
  readonly loading: Map<string, Promise<void>>;
  readonly listeners: Set<() => void>;
  /** The shipped callback page the script tag found beside it (src/shared/callback-page.ts). */
  callbackPage?: string;
  /**
   * Whether the script tag's start has run on this page (src/index.ts): a second copy of this
   * version, pasted twice or imported under another address, leaves the page to the first.
   */
  started?: boolean;
}

const KEY = Symbol.for(`loyalty-widgets ${VERSION}`);

/** This version's registry on this page, made by whichever copy asks first. */
export function pageRegistry(): PageRegistry {
  const scope = globalThis as { [KEY]?: PageRegistry };
  return (scope[KEY] ??= {
    early: new Map(),
    builtIn: new Map(),
    overrides: new Map(),
    loading: new Map(),
    listeners: new Set(),
  });
}
