import type { Messages } from '../../shared/messages.ts';

export const carouselMessages: Messages = {
  'carousel.label': 'Campaigns',
  'carousel.roledescription': 'carousel',
  'carousel.slide': 'slide',
  'carousel.position': '{index} of {count}',
  'carousel.previous': 'Previous slide',
  'carousel.next': 'Next slide',
  'carousel.stop': 'Stop automatic slide show',
  'carousel.start': 'Start automatic slide show',
  'carousel.empty': 'No campaigns right now. Come back soon!',
  'carousel.searching': 'Looking for more campaigns…',
  'carousel.notFoundYet': 'No campaigns found yet. There are more to look through.',
  'carousel.keepLooking': 'Keep looking',
};
