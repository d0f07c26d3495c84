/** Hex as the proxy's digests and the coupon claim keys write it. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { toHex } from '../../../src/shared/hex.ts';
import { sha256Hex } from '../../../src/proxy/shared/digest.ts';

describe('toHex', () => {
  it('writes two lower-case digits a byte, keeping leading zeros', () => {
    assert.equal(toHex(new Uint8Array([0, 1, 15, 16, 171, 255])), '00010f10abff');
    assert.equal(toHex(new Uint8Array()), '');
  });

  it("gives the proxy's SHA-256 digests in the form node:crypto writes them", async () => {
    for (const text of ['', 'campaign-a', 'é ☃ 𝄞'])
      assert.equal(await sha256Hex(text), createHash('sha256').update(text).digest('hex'));
  });
});
