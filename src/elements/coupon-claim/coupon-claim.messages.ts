import type { Messages } from '../../shared/messages.ts';

export const couponClaimMessages: Messages = {
  'coupon.get': 'Get coupon',
  'coupon.getting': 'Getting your coupon…',
  'coupon.another': 'Get another coupon',
  'coupon.signin': 'Sign in to get this coupon',
  'coupon.signinMissing': 'Please sign in with this page’s sign-in button first.',
  'coupon.codeLabel': 'Your coupon code',
  'coupon.copy': 'Copy code',
  'coupon.copied': 'Coupon code copied.',
  'coupon.copyFailed': 'Copying is not available here: select the code and copy it.',
  'coupon.claimed': 'Your coupon is ready: {code}',
  'coupon.none': 'This campaign has no coupon to claim.',
};
