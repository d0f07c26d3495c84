/**
 * The last check before an upstream answer is passed on: a body that carries the API key anywhere
 * is never passed on (502, the call may have run), any other body is passed on unchanged. The same
 * through the proxy over HTTP, errors included, is in upstream/upstream.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withoutKey } from '../../../../src/proxy/upstream/transport.ts';
import { UpstreamError } from '../../../../src/proxy/upstream/errors.ts';

const KEY = 'da2-marketing-key-0123456789';

describe('withoutKey', () => {
  it('passes on a body without the key unchanged', () => {
    const body = '{"data":{"campaign":{"id":"c1","title":"da2-marketing-key"}}}';
    assert.equal(withoutKey(body, KEY), body);
    assert.equal(withoutKey('', KEY), '');
  });

  for (const body of [`{"data":{"note":"${KEY}"}}`, `${KEY}`, `{"data":{"note":"prefix-${KEY}-suffix"}}`]) {
    it(`refuses ${JSON.stringify(body.slice(0, 30))}… with a 502 that names no key`, () => {
      assert.throws(
        () => withoutKey(body, KEY),
        (error: unknown) => {
          assert.ok(error instanceof UpstreamError);
          assert.equal(error.status, 502);
          assert.equal(error.code, 'upstream_error');
          assert.equal(error.mayHaveRun, true);
          assert.ok(!error.message.includes(KEY));
          assert.match(error.message, /will not pass on/);
          return true;
        },
      );
    });
  }
});
