import type { Messages } from '../../shared/messages.ts';

/** The launcher's panel's English strings, registered as the panel loads; the other languages are in `src/locales/`. */
export const panelMessages: Messages = {
  'launcher.close': 'Close rewards',
  'launcher.join': 'Join the program',
  'launcher.intro': 'Sign in with your loyalty wallet to get coupons and see your rewards.',
  'launcher.account': 'Your account',
  'launcher.member': 'Your coupons from this visit and the program’s partner businesses are below.',
  'launcher.campaigns': 'Offers',
  'launcher.coupons': 'Your coupons',
  'launcher.no-coupons': 'Coupons you get in this visit are listed here.',
  'launcher.partners': 'Partner businesses',
};
