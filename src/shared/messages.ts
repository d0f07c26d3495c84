/** One language's strings: message id to text, with `{name}` placeholders. */
export type Messages = Record<string, string>;
