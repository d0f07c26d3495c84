/**
 * Web Storage where the browser lets the page use it, else memory for the page's life. A page in a
 * frame of another site (an embed block of a site builder) may find its storage blocked: reading
 * `sessionStorage` throws a SecurityError, or writing to it does. The widgets then keep what they
 * would have stored (pending sign-ins, say) in memory, so they work on that page and forget it when it
 * goes, rather than fail.
 *
 * The choice is made once per window and kept on the window under a symbol, so every copy of this
 * module on the page, and a sign-in popup of this origin looking at its opener, see the same store.
 */
import { STORAGE_PREFIX } from './storage-keys.ts';

export type WebStorageKind = 'session' | 'local';

/** Storage's interface over a Map, for a page whose browser refuses it Web Storage. */
class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();
  [name: string]: unknown;

  get length(): number {
    return this.#items.size;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }

  clear(): void {
    this.#items.clear();
  }
}

const KEY = Symbol.for(`${STORAGE_PREFIX}page-storage`);
const PROBE = `${STORAGE_PREFIX}probe`;

type Chosen = Partial<Record<WebStorageKind, Storage>>;

/** The browser's storage of this kind when it can be read and written here; undefined otherwise. */
function usableWebStorage(kind: WebStorageKind, win: typeof globalThis): Storage | undefined {
  try {
    const storage = kind === 'session' ? win.sessionStorage : win.localStorage;
    storage.setItem(PROBE, '1');
    storage.removeItem(PROBE);
    return storage;
  } catch {
    return undefined;
  }
}

/**
 * This window's storage of this kind: the browser's, or memory when the browser refuses it. `win` is
 * this page by default; a popup reads its opener's (of its own origin) to see what the opener waits for.
 */
export function pageStorage(kind: WebStorageKind, win: typeof globalThis = globalThis): Storage {
  const chosen = ((win as { [KEY]?: Chosen })[KEY] ??= {});
  return (chosen[kind] ??= usableWebStorage(kind, win) ?? new MemoryStorage());
}

/** Every key in a storage, the browser's or memory's (whose keys are not its properties). */
export function storedKeys(storage: Storage): string[] {
  return Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? '');
}
