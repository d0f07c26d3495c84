import { LitElement } from 'lit';
import { emit, type CustomEventName, type EventDetail } from '../../shared/emit.ts';
import { LocaleController, registerBuiltInMessages, type Messages } from '../../shared/i18n.ts';
import { VERSION } from '../../shared/version.ts';

/**
 * What every element of this package is: localized (its strings follow the `lang` in force where
 * it stands and it never renders before they are in), and versioned, so a page that loads two
 * different copies is told which one it runs.
 */
export class LoyaltyElement extends LitElement {
  /** @internal The version of this copy of the widgets. */
  static readonly version = VERSION;

  /**
   * @internal The element's English strings, registered when the element is defined (declared on
   * the class, not as a side effect of the messages module, so bundlers never drop them).
   */
  protected static messages?: Messages;

  /** @internal */
  protected static override finalize(): void {
    const first = !Object.hasOwn(this, 'finalized');
    super.finalize();
    if (first && Object.hasOwn(this, 'messages') && this.messages) registerBuiltInMessages(this.messages);
  }

  /** @internal */
  protected readonly locale = new LocaleController(this);

  /**
   * @internal Sends one of the package's events from this element (bubbling, composed); the detail
   * is checked against the type declared for the event's name.
   */
  protected emit<K extends CustomEventName>(name: K, detail: EventDetail<K>): boolean {
    return emit(this, name, detail);
  }

  /** @internal The first render, and any after a `lang` change, waits for that language's strings. */
  protected override scheduleUpdate(): void | Promise<unknown> {
    return this.locale.whenReady(() => super.scheduleUpdate());
  }
}
