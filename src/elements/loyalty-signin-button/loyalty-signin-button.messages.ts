import type { Messages } from '../../shared/messages.ts';

/**
 * The sign-in button's English strings; the other languages are in `src/locales/`. Merchants
 * override any of them with registerMessages().
 */
export const signinButtonMessages: Messages = {
  'signin.label': 'Sign in with your loyalty wallet',
  'signin.pending': 'Signing in…',
  'signin.signed-in-as': 'Signed in as {username}',
  'signin.signed-in': 'Signed in',
  'signin.signout': 'Sign out',
  'signin.unavailable': '{program} is not available for sign-in yet.',
  'signin.unavailable-generic': 'This loyalty program is not available for sign-in yet.',
  'signin.error.access_denied':
    "You cancelled the sign-in. Rewards can't be credited to your wallet without signing in.",
  'signin.error.popup_blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
  'signin.error.popup_closed': 'The sign-in window was closed before you finished. Try again when you are ready.',
  'signin.error.invalid_token': "The sign-in could not be verified, so it wasn't used. Please try again.",
  'signin.error.state_mismatch':
    "This sign-in answer didn't match a sign-in started here, so it wasn't used. Please try again.",
  'signin.error.network': "We couldn't reach the loyalty service. Check your connection and try again.",
  'signin.error.config': 'Sign-in is not set up correctly on this site.',
  'signin.expired': 'Your session has ended. Sign in again to continue.',
};
