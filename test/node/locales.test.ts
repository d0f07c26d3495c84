/**
 * Every built-in language says everything English says: the same message ids, and in each message
 * the same `{placeholders}`, so no element shows a raw id or an unfilled `{count}` in French or Arabic.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import type { Messages } from '../../src/shared/i18n.ts';
import { marketingMessages } from '../../src/elements/internal/messages.ts';
import { carouselMessages } from '../../src/elements/campaign-carousel/campaign-carousel.messages.ts';
import { couponClaimMessages } from '../../src/elements/coupon-claim/coupon-claim.messages.ts';
import { directoryMessages } from '../../src/elements/business-directory/business-directory.messages.ts';
import { signinButtonMessages } from '../../src/elements/loyalty-signin-button/loyalty-signin-button.messages.ts';

const english: Messages = { ...marketingMessages, ...carouselMessages, ...couponClaimMessages, ...directoryMessages, ...signinButtonMessages };
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

const localeFiles = (await readdir(new URL('../../src/locales/', import.meta.url))).filter((name) => name.endsWith('.ts'));

describe('built-in languages', () => {
  it('ship at least two besides English', () => {
    assert.ok(localeFiles.length >= 2, `src/locales has ${localeFiles.join(', ')}`);
  });

  for (const file of localeFiles) {
    it(`${file} has every English message, no other, with the same placeholders`, async () => {
      const { default: messages } = (await import(`../../src/locales/${file}`)) as { default: Messages };
      assert.deepEqual(Object.keys(messages).sort(), Object.keys(english).sort());
      for (const [id, text] of Object.entries(english)) {
        assert.deepEqual(placeholders(messages[id]!), placeholders(text), `${file}: ${id}`);
        assert.notEqual(messages[id]!.trim(), '', `${file}: ${id} is empty`);
      }
    });
  }
});
