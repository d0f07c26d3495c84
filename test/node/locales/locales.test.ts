/**
 * Every built-in language says everything English says: the same message ids, and in each message
 * the same `{placeholders}`, so no element shows a raw id or an unfilled `{count}` in French or Arabic.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import type { Messages } from '../../../src/shared/i18n.ts';

/** Every element's English strings: all that its `*.messages.ts` files (and `internal/messages.ts`) export. */
const elementsDir = new URL('../../../src/elements/', import.meta.url);
const messageFiles = (await readdir(elementsDir, { recursive: true })).filter((file) =>
  /(^|[\\/.])messages\.ts$/.test(file),
);
const english: Messages = {};
for (const file of messageFiles)
  Object.assign(english, ...Object.values((await import(new URL(file, elementsDir).href)) as Record<string, Messages>));
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

/** Each language is the file named by its tag (`fr.ts`); `messages.ts` declares what they all are. */
const localeFiles = (await readdir(new URL('../../../src/locales/', import.meta.url))).filter(
  (name) => name.endsWith('.ts') && name !== 'messages.ts',
);

describe('built-in languages', () => {
  it('are checked against every element’s English strings', () => {
    assert.ok(messageFiles.length >= 5, `found ${messageFiles.join(', ')}`);
    assert.ok(Object.keys(english).length > 50, `${Object.keys(english).length} English messages`);
  });

  it('ship at least two besides English', () => {
    assert.ok(localeFiles.length >= 2, `src/locales has ${localeFiles.join(', ')}`);
  });

  for (const file of localeFiles) {
    it(`${file} has every English message, no other, with the same placeholders`, async () => {
      const { default: messages } = (await import(`../../../src/locales/${file}`)) as { default: Messages };
      assert.deepEqual(Object.keys(messages).sort(), Object.keys(english).sort());
      for (const [id, text] of Object.entries(english)) {
        assert.deepEqual(placeholders(messages[id]!), placeholders(text), `${file}: ${id}`);
        assert.notEqual(messages[id]!.trim(), '', `${file}: ${id} is empty`);
      }
    });
  }
});
