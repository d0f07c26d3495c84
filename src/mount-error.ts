/**
 * What a mount that names no widget shows in place of one: the elements' own set-up message, in the
 * language in force where the mount stands. Loaded only when a page has such a mount.
 */
import { marketingMessages } from './elements/internal/messages.ts';
import { loadBuiltInMessages, registerBuiltInMessages, translate } from './shared/i18n.ts';
import { newElement } from './shared/page.ts';

const ID = 'marketing.error.config';

export async function showSetupError(mount: Element, lang: string): Promise<void> {
  registerBuiltInMessages({ [ID]: marketingMessages[ID]! });
  await loadBuiltInMessages(lang);
  const message = newElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = translate(lang, ID);
  mount.replaceChildren(message);
}
