import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Automatic slide rotation, WAI-ARIA APG style: only when asked for, never under
 * `prefers-reduced-motion`, paused while the pointer is over the carousel, stopped for good when
 * focus enters it (until the shopper starts it again with the rotation button).
 */
export class Rotation implements ReactiveController {
  /** The shopper has not stopped it. */
  playing = true;
  #hovered = false;
  /** A pointer is pressing the rotation button, whose click (not the focus the press gives it) decides. */
  #pressing = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #timerSeconds = 0;
  readonly #reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
  readonly #onMotionChange = (): void => this.#host.requestUpdate();

  readonly #host: ReactiveControllerHost;
  readonly #seconds: () => number;
  readonly #advance: () => void;

  constructor(host: ReactiveControllerHost, seconds: () => number, advance: () => void) {
    this.#host = host;
    this.#seconds = seconds;
    this.#advance = advance;
    host.addController(this);
  }

  /** Whether the carousel rotates at all (and so shows its rotation button). */
  get enabled(): boolean {
    return this.#seconds() > 0 && !this.#reducedMotion.matches;
  }

  get running(): boolean {
    return this.enabled && this.playing && !this.#hovered;
  }

  /** The rotation button's `pointerdown` and `pointercancel`. */
  readonly onPress = (event: PointerEvent): void => {
    this.#pressing = event.type === 'pointerdown' && event.button === 0;
  };

  /** The rotation button's click: stops or starts rotation. */
  readonly onClick = (): void => {
    this.#pressing = false;
    this.playing = !this.playing;
    this.#host.requestUpdate();
  };

  /**
   * Focus entering the carousel stops rotation, except the focus that pressing the rotation button
   * gives it (Chromium and Firefox focus a button on mousedown, before its click): otherwise that
   * focus would stop rotation and the click would start it again at once.
   */
  readonly onFocusin = (event: FocusEvent): void => {
    const pressed = this.#pressing && (event.target as Element).matches('[part~="rotation-button"]');
    this.#pressing = false;
    if (!pressed) this.stop();
  };

  stop(): void {
    if (!this.playing) return;
    this.playing = false;
    this.#host.requestUpdate();
  }

  hover(on: boolean): void {
    this.#hovered = on;
    this.#sync();
  }

  hostConnected(): void {
    this.#reducedMotion.addEventListener('change', this.#onMotionChange);
  }

  hostDisconnected(): void {
    this.#reducedMotion.removeEventListener('change', this.#onMotionChange);
    this.#clear();
  }

  hostUpdated(): void {
    this.#sync();
  }

  #sync(): void {
    const seconds = this.running ? this.#seconds() : 0;
    if (seconds === this.#timerSeconds) return;
    this.#clear();
    if (seconds > 0) {
      this.#timerSeconds = seconds;
      this.#timer = setInterval(this.#advance, seconds * 1000);
    }
  }

  #clear(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#timerSeconds = 0;
  }
}
