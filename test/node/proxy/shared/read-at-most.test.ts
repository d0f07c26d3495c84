/** The byte limit on the browser's calls and the upstream's answers: counted as the stream arrives. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readAtMost } from '../../../../src/proxy/shared/read-at-most.ts';

class TooLarge extends Error {}
const tooLarge = () => new TooLarge('too large');

/** A stream of the given chunks that records whether it was cancelled and how many chunks were pulled. */
function chunked(chunks: Uint8Array[], endless = false) {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled++ % chunks.length];
      if (chunk && (endless || state.pulled <= chunks.length)) controller.enqueue(chunk);
      else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('readAtMost', () => {
  it('joins the chunks in order, up to and including exactly the limit', async () => {
    const { stream } = chunked([new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5])]);
    assert.deepEqual(await readAtMost(stream, 5, tooLarge), new Uint8Array([1, 2, 3, 4, 5]));
  });

  it('gives no bytes for no body', async () => {
    assert.deepEqual(await readAtMost(null, 5, tooLarge), new Uint8Array());
  });

  it('cancels an endless stream at the limit and throws the caller’s error', async () => {
    const { stream, state } = chunked([new Uint8Array(1024)], true);
    await assert.rejects(readAtMost(stream, 16 * 1024, tooLarge), TooLarge);
    assert.equal(state.cancelled, true);
    assert.ok(state.pulled <= 18, `stopped at the limit, not after ${state.pulled} chunks`);
  });
});
