/**
 * One language's strings: message id to text, with `{name}` placeholders. Declared beside the
 * built-in languages, which depend on nothing else, so that the strings' registry
 * (src/shared/i18n.ts) loads them without the two folders importing each other.
 */
export type Messages = Record<string, string>;
