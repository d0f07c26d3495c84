/**
 * Task plumbing shared by the Marketing elements: requests are aborted when an element leaves the
 * page (and run again if it comes back), and paginated lists load their next page on demand.
 */
import { Task, TaskStatus } from '@lit/task';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isAbortError, MarketingError } from '../../marketing/errors.ts';
import type { Page } from '../../marketing/types.ts';
import { isPageSize } from '../../shared/page-size.ts';
import { warnOnce } from '../../shared/warn.ts';

/**
 * A page size the proxy accepts (1 to 50). Anything else in the `limit` attribute gives the default,
 * and the developer is told so in the console, once.
 */
export function pageSize(host: HTMLElement, value: number, fallback: number): number {
  if (isPageSize(value)) return value;
  warnOnce(
    host,
    `limit="${host.getAttribute('limit') ?? String(value)}" is not a whole number from 1 to 50; loading ${fallback} at a time.`,
  );
  return fallback;
}

/** The task's failure, unless it only failed because it was aborted. */
export function failureOf(task: Task): unknown {
  return task.status === TaskStatus.ERROR && !isAbortError(task.error) ? task.error : undefined;
}

/** Whether there is nothing to show yet (not started, running, or aborted while the element was away). */
export function isWaiting(task: Task): boolean {
  return (
    task.status === TaskStatus.INITIAL ||
    task.status === TaskStatus.PENDING ||
    (task.status === TaskStatus.ERROR && isAbortError(task.error))
  );
}

/** Aborts the running tasks when the host is disconnected and runs them again when it is reconnected. */
export class AbortOnDisconnect implements ReactiveController {
  #interrupted: Task[] = [];
  readonly #tasks: Task[];

  constructor(host: ReactiveControllerHost, tasks: Task[]) {
    this.#tasks = tasks;
    host.addController(this);
  }

  hostConnected(): void {
    for (const task of this.#interrupted.splice(0)) void task.run();
  }

  hostDisconnected(): void {
    for (const task of this.#tasks) {
      if (task.status !== TaskStatus.PENDING) continue;
      this.#interrupted.push(task);
      task.abort();
    }
  }
}

export type PageLoader<A extends ReadonlyArray<unknown>, T> = (
  args: A,
  nextToken: string | null,
  signal: AbortSignal,
) => Promise<Page<T>>;

/**
 * How far one load reads while pages show nothing but still carry a `nextToken`: 5 pages, and no new
 * page after 8 s. Upstreams that filter after reading (AppSync over DynamoDB) hand back short or empty
 * pages with a cursor, and a proxy that fills pages stops at its own cap; past this bound the list
 * stops and waits to be asked again (the carousel's "Keep looking", the directory's "show more"). A
 * list is only empty once the upstream said there is no more.
 */
const MAX_EMPTY_PAGES = 5;
const MAX_SEARCH_MS = 8000;

/**
 * Reads pages from `token` until one shows an item, the list ends, or the bound is reached; `onSearch`
 * is told when a page showed nothing and another is being read.
 */
async function readShowing<A extends ReadonlyArray<unknown>, T>(
  load: PageLoader<A, T>,
  args: A,
  token: string | null,
  signal: AbortSignal,
  shows: (item: T) => boolean,
  onSearch: () => void,
): Promise<Page<T>> {
  const items: T[] = [];
  const started = performance.now();
  for (let read = 1; ; read++) {
    const page = await load(args, token, signal);
    items.push(...page.items);
    token = page.nextToken;
    const bounded = read >= MAX_EMPTY_PAGES || performance.now() - started >= MAX_SEARCH_MS;
    if (!token || page.items.some(shows) || bounded) return { items, nextToken: token };
    onSearch();
  }
}

/**
 * A list read page by page: `first` loads when its arguments change, `loadMore()` appends the next
 * page. A page that shows nothing (`shows` is false for all its items) but has a `nextToken` is
 * followed at once, within a bound, so the list never stalls on an empty page; `searching` says so
 * meanwhile, for the element to tell the shopper that more is being looked for.
 */
export class PagedList<const A extends ReadonlyArray<unknown>, T> {
  items: readonly T[] = [];
  nextToken: string | null = null;
  /** A load read a page that showed nothing and is reading the next one. */
  searching = false;
  readonly first: Task<A, void>;
  readonly more: Task<readonly [], void>;
  #args: A | undefined;

  constructor(
    host: ReactiveControllerHost,
    load: PageLoader<A, T>,
    args: () => A,
    shows: (item: T) => boolean = () => true,
  ) {
    const search = () => {
      this.searching = true;
      host.requestUpdate();
    };
    this.first = new Task(host, {
      args,
      task: async (current, { signal }) => {
        this.more.abort();
        this.#args = current;
        this.items = [];
        this.nextToken = null;
        this.searching = false;
        const page = await readShowing(load, current, null, signal, shows, search).finally(
          () => (this.searching = false),
        );
        this.items = page.items;
        this.nextToken = page.nextToken;
      },
    });
    this.more = new Task<readonly [], void>(host, {
      autoRun: false,
      task: async (_, { signal }) => {
        const current = this.#args;
        const { nextToken } = this;
        if (!current || !nextToken) return;
        let page: Page<T>;
        try {
          page = await readShowing(load, current, nextToken, signal, shows, search);
        } catch (error) {
          // The proxy no longer takes this cursor (its key or secret changed): a retry would fail the same
          // way, so the list starts again from its first page.
          if (error instanceof MarketingError && error.code === 'invalid_cursor' && current === this.#args) {
            queueMicrotask(() => void this.first.run());
            return;
          }
          throw error;
        } finally {
          this.searching = false;
        }
        if (current !== this.#args) return; // The list was reloaded meanwhile.
        this.items = [...this.items, ...page.items];
        this.nextToken = page.nextToken;
      },
    });
    new AbortOnDisconnect(host, [this.first, this.more]);
  }

  /** Loads the next page unless there is none or it is already loading. */
  loadMore(): void {
    if (this.nextToken && this.more.status !== TaskStatus.PENDING) void this.more.run([]);
  }

  get loadingMore(): boolean {
    return this.more.status === TaskStatus.PENDING;
  }
}
