// The manifest is generated from the elements' JSDoc (@summary @tag @event @slot @csspart
// @cssproperty); never edit custom-elements.json by hand: `npm run docs` writes it.
export default {
  globs: ['src/elements/*/*.ts'],
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/**/*.messages.ts', 'src/elements/**/index.ts'],
  litelement: true,
  packagejson: false,
};
