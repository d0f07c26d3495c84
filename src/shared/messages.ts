export type { Messages } from '../locales/messages.ts';
