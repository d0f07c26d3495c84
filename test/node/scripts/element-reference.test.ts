/**
 * The README's element reference, rendered from a manifest: sections whose descriptions are short
 * stay tables; a section with a paragraph in it becomes a list, where a pipe needs no escape.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { renderElementReference, type Manifest } from '../../../scripts/manifest-markdown.ts';

const paragraph = 'A description long enough to be a paragraph rather than a cell. '.repeat(3).trim();

const manifest: Manifest = {
  modules: [
    {
      path: 'src/elements/x-demo/x-demo.ts',
      declarations: [
        {
          kind: 'class',
          name: 'XDemo',
          customElement: true,
          tagName: 'x-demo',
          summary: 'A demo element.',
          attributes: [
            { name: 'mode', fieldName: 'mode', type: { text: "'a' | 'b'" }, default: "'a'", description: paragraph },
            { name: 'label', fieldName: 'label', type: { text: 'string' }, description: 'The label.' },
          ],
          slots: [{ name: '', description: 'The content.' }],
        },
      ],
    },
  ],
};

const reference = renderElementReference(manifest);

it('renders a section with a paragraph as a list of name (facts): description', () => {
  assert.ok(
    reference.includes(`- \`mode\` (property \`mode\`, type \`'a' | 'b'\`, default \`'a'\`): ${paragraph}`),
    reference,
  );
  assert.ok(reference.includes('- `label` (property `label`, type `string`): The label.'), reference);
  assert.doesNotMatch(reference, /\| Attribute \|/);
});

it('keeps a section of short descriptions a table', () => {
  assert.match(
    reference,
    /\*\*Slots\*\*\n\n\| Slot \| Description \|\n\| --- \| --- \|\n\| \(default\) \| The content\. \|/,
  );
});
