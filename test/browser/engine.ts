/**
 * Which engine runs the test (the suite runs in Chromium, Firefox and WebKit). Tests that need a
 * feature only one engine's automation offers say so through `onlyIn`, which reports them skipped
 * elsewhere.
 */
import { sendKeys } from '@web/test-runner-commands';

export type Engine = 'chromium' | 'firefox' | 'webkit';

export const engine: Engine = / Firefox\//.test(navigator.userAgent)
  ? 'firefox'
  : /Chrom(e|ium)\//.test(navigator.userAgent)
    ? 'chromium'
    : 'webkit';

/** `it` in these engines, `it.skip` in the others. */
export function onlyIn(...engines: Engine[]): Mocha.TestFunction | Mocha.PendingTestFunction {
  return engines.includes(engine) ? it : it.skip;
}

/**
 * Presses a button the way a shopper does: focus, then a real Enter key from the browser's
 * automation, so the click carries user activation and popup blockers treat it as a shopper's.
 */
export async function pressForReal(button: HTMLElement): Promise<void> {
  button.focus();
  await sendKeys({ press: 'Enter' });
}
