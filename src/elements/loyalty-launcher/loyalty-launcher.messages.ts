import type { Messages } from '../../shared/messages.ts';

/**
 * The launcher's button's English string, registered as the button loads (the panel's are in
 * launcher-panel.messages.ts); the other languages are in `src/locales/`.
 */
export const launcherMessages: Messages = {
  'launcher.label': 'Rewards',
};
