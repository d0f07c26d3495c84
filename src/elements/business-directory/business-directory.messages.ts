import type { Messages } from '../../shared/messages.ts';

export const directoryMessages: Messages = {
  'directory.label': 'Businesses',
  'directory.empty': 'No businesses to show yet.',
  'directory.more': 'Show more businesses',
  'directory.loadingMore': 'Loading more businesses…',
  'directory.count': '{count} businesses shown',
  'directory.phone': 'Phone',
  'directory.website': 'Website',
};
