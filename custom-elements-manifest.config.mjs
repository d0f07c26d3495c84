// The manifest is generated from the elements' JSDoc (@summary @tag @event @slot @csspart
// @cssproperty); never edit custom-elements.json by hand: `npm run docs` writes it.

/** The element modules, one per tag: what the manifest documents. */
const ELEMENT_MODULE = /^src\/elements\/([a-z-]+)\/\1\.ts$/;

/**
 * The manifest is the elements' public face: it keeps the four element modules and, in them, the
 * element classes with their public members. The base classes are read only so that their public
 * members (`endpoint`) are listed on each element; helpers, private and protected members, and
 * whatever an element module exports beside its class are left out.
 */
function publicElementsOnly() {
  return {
    name: 'loyalty-public-elements-only',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules = customElementsManifest.modules.filter((module) =>
        ELEMENT_MODULE.test(module.path),
      );
      for (const module of customElementsManifest.modules) {
        module.declarations = (module.declarations ?? []).filter((declaration) => declaration.customElement);
        const kept = new Set(module.declarations.map((declaration) => declaration.name));
        module.exports = (module.exports ?? []).filter((entry) => kept.has(entry.declaration?.name));
        // Each element is defined by its entry (defineElement), which the analyzer does not read: say
        // which tag each class is defined as, for the tools that map tags to classes from the exports.
        for (const element of module.declarations) {
          if (!element.tagName) continue;
          module.exports.push({
            kind: 'custom-element-definition',
            name: element.tagName,
            declaration: { name: element.name, module: module.path },
          });
        }
        for (const element of module.declarations) {
          // Properties declared in `static properties` come marked `public`; the rest unmarked are public too.
          element.members = (element.members ?? []).filter(
            (member) => (!member.privacy || member.privacy === 'public') && !member.static,
          );
          for (const member of element.members) delete member.privacy;
          // An internal reactive state (`state: true`) is no attribute, though the analyzer lists one.
          const fields = new Set(element.members.map((member) => member.name));
          element.attributes = element.attributes?.filter(
            (attribute) => !attribute.fieldName || fields.has(attribute.fieldName),
          );
          // The internal base classes are not in the manifest; what they give is listed on the element.
          element.superclass = { name: 'LitElement', package: 'lit' };
          for (const list of [element.members, element.attributes ?? [], element.events ?? []]) {
            for (const item of list) delete item.inheritedFrom;
          }
        }
      }
    },
  };
}

export default {
  globs: [
    'src/elements/*/*.ts',
    'src/elements/internal/loyalty-element.ts',
    'src/elements/internal/marketing-element.ts',
  ],
  exclude: [
    'src/elements/*/index.ts',
    'src/elements/*/events.ts',
    'src/elements/**/*.styles.ts',
    'src/elements/**/*.messages.ts',
  ],
  litelement: true,
  packagejson: false,
  plugins: [publicElementsOnly()],
};
