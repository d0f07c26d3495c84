import type { Messages } from '../../shared/messages.ts';

/** Strings shared by the Marketing elements: failures and their retry control. */
export const marketingMessages: Messages = {
  'marketing.error.unavailable': 'The loyalty service is not answering right now. Please try again in a moment.',
  'marketing.retry': 'Try again',
  'marketing.error.network': 'We could not reach the loyalty service. Check your connection.',
  'marketing.error.rate_limited': 'Too many requests. Please try again {when}.',
  'marketing.error.rate_limited_soon': 'Too many requests. Please try again in a moment.',
  'marketing.error.not_found': 'This offer could not be found.',
  'marketing.error.unauthorized': 'Please sign in again.',
  'marketing.error.signin_required': 'Please sign in first.',
  'marketing.error.forbidden': 'This is not available to you.',
  'marketing.error.invalid_response': 'The loyalty service sent something we could not read.',
  'marketing.error.config': 'This widget is not set up correctly.',
  'marketing.error.other': 'Something went wrong. Please try again.',
};
