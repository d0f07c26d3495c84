import type { ReactiveElement } from 'lit';
import { fullyInView, nearestSlide, scrollToSlide, shownSlides } from './track.ts';

/** What the track keeps of where it stands; the carousel renders from it. */
interface TrackState {
  current: number;
  atEnd: boolean;
  firstShown: number;
  lastShown: number;
  focusKept: number;
  announcement: string;
}

/**
 * Where the carousel's scrolling track stands and how it moves: which slide is current, which are in
 * full view (the others are `inert`: their controls are out of the tab order, so Tab after "next"
 * reaches a slide the shopper sees whole, never one scrolled out of sight or cut off at an edge),
 * whether the last one is in full view, what the live region says after "previous" and "next", and
 * the arrow keys between the slides' title buttons.
 * `onEnd` is called when the last slide comes into view. The host calls `rendered()` after each of its
 * updates and `disconnected()` when it leaves the page.
 */
export class SlideTrack {
  #state: TrackState = {
    current: 0,
    atEnd: false,
    firstShown: 0,
    lastShown: Number.POSITIVE_INFINITY,
    focusKept: -1,
    announcement: '',
  };
  /** Where a button's smooth scroll is taking the track, until it gets there or the shopper scrolls. */
  #destination?: number;
  /**
   * Where a Tab ended a smooth scroll at once (`#arrive`). Chromium may still move the track one frame
   * on from the scroll it was running off the main thread; the track goes back there once, when it rests.
   */
  #arrival?: number;
  #observer?: IntersectionObserver;
  #observedRoot?: Element;
  #observedSlide?: Element;
  #frame = 0;

  /** Ends a button's smooth scroll: the track is measured where it is from now on. */
  readonly stopFollowing = {
    handleEvent: (event: Event): void => {
      this.#destination = undefined;
      const scroller = this.#scroller;
      const arrival = this.#arrival;
      if (event.type !== 'scrollend' || !scroller || arrival === undefined) this.#arrival = undefined;
      else if (Math.abs(scroller.scrollLeft - arrival) > 1) {
        this.#arrival = undefined;
        scroller.scrollTo({ left: arrival, behavior: 'instant' });
      }
      this.scheduleMeasure();
    },
    passive: true,
  };

  readonly #host: ReactiveElement;
  readonly #rtl: () => boolean;
  readonly #onEnd: () => void;

  constructor(host: ReactiveElement, rtl: () => boolean, onEnd: () => void) {
    this.#host = host;
    this.#rtl = rtl;
    this.#onEnd = onEnd;
  }

  get current(): number {
    return this.#state.current;
  }

  get atEnd(): boolean {
    return this.#state.atEnd;
  }

  get announcement(): string {
    return this.#state.announcement;
  }

  /** Whether slide `index` is kept out of the tab order: out of view, and not holding focus. */
  isInert(index: number): boolean {
    const { firstShown, lastShown, focusKept } = this.#state;
    return (index < firstShown || index > lastShown) && index !== focusKept;
  }

  get #root(): ShadowRoot {
    return this.#host.renderRoot as ShadowRoot;
  }

  get #scroller(): HTMLElement | null {
    return this.#root.querySelector<HTMLElement>('.slides');
  }

  get slides(): HTMLElement[] {
    return [...this.#root.querySelectorAll<HTMLElement>('.slide[data-index]')];
  }

  /** Changes what differs and asks the host to render again only then. */
  #set(changes: Partial<TrackState>): void {
    const next = { ...this.#state, ...changes };
    if ((Object.keys(next) as (keyof TrackState)[]).every((key) => Object.is(next[key], this.#state[key]))) return;
    this.#state = next;
    this.#host.requestUpdate();
  }

  /** The slide holding keyboard focus, if any. */
  get #focusedSlide(): number | undefined {
    const index = this.#root.activeElement?.closest<HTMLElement>('[data-index]')?.dataset.index;
    return index === undefined ? undefined : Number(index);
  }

  /** Reads which slide is at the start of the track, which are in view, and whether the last one is in full view. */
  #measure(): void {
    const scroller = this.#scroller;
    const slides = this.slides;
    const last = slides.at(-1);
    if (!scroller || !last) return;
    // While a button's smooth scroll runs, the track is measured where it is headed, so the slides it
    // leaves are inert at once (Tab right after "next" goes to the new slide, not an old one).
    const pending = this.#destination === undefined ? 0 : this.#destination - scroller.scrollLeft;
    if (Math.abs(pending) < 1) this.#destination = undefined;
    const box = scroller.getBoundingClientRect();
    const track = new DOMRect(box.x + pending, box.y, box.width, box.height);
    const rtl = this.#rtl();
    const focused = this.#focusedSlide;
    // While a slide's title button has keyboard focus, that slide stays the current one, whatever the scroll says.
    const current =
      !this.#root.activeElement?.matches('.title-button') || focused === undefined
        ? nearestSlide(slides, track, rtl)
        : this.#state.current;
    const [first, lastShown] = shownSlides(slides, track);
    this.#set({
      current,
      firstShown: Math.min(first, current),
      lastShown: Math.max(lastShown, current),
      // The slide holding focus is never made inert under it (a swipe while a button has focus).
      focusKept: focused ?? -1,
      atEnd: fullyInView(last, track, rtl),
    });
  }

  readonly scheduleMeasure = (): void => {
    this.#frame ||= requestAnimationFrame(() => {
      this.#frame = 0;
      this.#measure();
    });
  };

  /** Brings slide `index` (clamped) to the start of the track and makes it the current one. */
  goTo(index: number, announce = false): void {
    const scroller = this.#scroller;
    const slides = this.slides;
    const slide = slides[Math.max(0, Math.min(index, slides.length - 1))];
    if (!scroller || !slide) return;
    this.#arrival = undefined;
    this.#destination = scrollToSlide(scroller, slide, this.#rtl());
    const current = Number(slide.dataset.index);
    this.#set({
      current,
      // Shown at once, so its controls can take focus while the track is still scrolling to it.
      firstShown: Math.min(this.#state.firstShown, current),
      lastShown: Math.max(this.#state.lastShown, current),
      ...(announce && {
        announcement: `${slide.getAttribute('aria-label')}: ${slide.querySelector('.title')?.textContent ?? ''}`,
      }),
    });
  }

  /** Ends a button's smooth scroll at once, where it was headed. */
  #arrive(): void {
    const scroller = this.#scroller;
    if (!scroller || this.#destination === undefined) return;
    this.#arrival = this.#destination;
    scroller.scrollTo({ left: this.#destination, behavior: 'instant' });
  }

  /**
   * Tab while a button's smooth scroll still runs (quick presses, then Tab) ends the scroll first: the
   * slide focus reaches is in full view where the track is headed, so it is in full view as focus
   * lands, and the browser has no reason to scroll the track to it.
   */
  readonly onTab = (event: KeyboardEvent): void => {
    if (event.key === 'Tab') this.#arrive();
  };

  /** Focus coming into a slide from outside the carousel while the track moves: the same. */
  readonly onFocusin = (event: FocusEvent): void => {
    if ((event.target as Element).closest('[data-index]')) this.#arrive();
  };

  /** Arrow keys, Home and End move between the slides' title buttons (each a real button that Enter and Space press). */
  readonly onKeydown = async (event: KeyboardEvent): Promise<void> => {
    const button = event.target as HTMLElement;
    const slide = button.closest<HTMLElement>('[data-index]');
    if (!button.matches('.title-button') || !slide) return;
    const index = Number(slide.dataset.index);
    const rtl = this.#rtl();
    const targets: Record<string, number> = {
      [rtl ? 'ArrowLeft' : 'ArrowRight']: index + 1,
      [rtl ? 'ArrowRight' : 'ArrowLeft']: index - 1,
      Home: 0,
      End: this.slides.length - 1,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = this.slides[Math.max(0, Math.min(target, this.slides.length - 1))];
    if (!next) return;
    this.goTo(Number(next.dataset.index));
    await this.#host.updateComplete;
    next.querySelector<HTMLElement>('.title-button')?.focus({ preventScroll: true });
  };

  /** Watches the last slide rendered and measures the track once the browser has laid it out. */
  rendered(): void {
    const scroller = this.#scroller;
    if (scroller && scroller !== this.#observedRoot) {
      this.#observer?.disconnect();
      this.#observedRoot = scroller;
      this.#observedSlide = undefined;
      this.#observer = new IntersectionObserver(
        (entries) => entries.some((entry) => entry.isIntersecting) && this.#onEnd(),
        {
          root: scroller,
          threshold: 0.5,
        },
      );
    }
    const last = this.slides.at(-1);
    if (this.#observer && last && last !== this.#observedSlide) {
      this.#observer.disconnect();
      this.#observer.observe(last);
      this.#observedSlide = last;
    }
    this.scheduleMeasure();
  }

  disconnected(): void {
    this.#observer?.disconnect();
    this.#observer = this.#observedRoot = this.#observedSlide = undefined;
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }
}
