/** Both Marketing flavours' /graphql: never cached, and a body over 100 KiB refused in the flavour's own words. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMarketing, type RunningMarketing } from '../../../../src/sandbox/index.ts';
import { MAX_GRAPHQL_BODY_BYTES } from '../../../../src/sandbox/marketing/graphql-route.ts';

const EXPECTED_REFUSAL = {
  default: {
    errors: [
      {
        message: `The body is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes`,
        extensions: { code: 'PAYLOAD_TOO_LARGE' },
      },
    ],
  },
  appsync: {
    errors: [
      {
        errorType: 'MalformedHttpRequestException',
        message: `Request body is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes.`,
      },
    ],
  },
};

for (const flavor of ['default', 'appsync'] as const) {
  describe(`Marketing sandbox (${flavor}) /graphql`, () => {
    let marketing: RunningMarketing;
    before(async () => (marketing = await startMarketing({ flavor, marketingPort: 0 })));
    after(() => marketing?.close());

    const post = (body: string) =>
      fetch(marketing.marketingUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': marketing.apiKey },
        body,
      });

    it('answers with Cache-Control: no-store', async () => {
      const response = await post(JSON.stringify({ query: '{ __typename }' }));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
    });

    it('refuses a body over the limit with 413, and takes one at the limit', async () => {
      const query = JSON.stringify({ query: '{ __typename }' });
      const tooLarge = await post(query + ' '.repeat(MAX_GRAPHQL_BODY_BYTES - query.length + 1));
      assert.equal(tooLarge.status, 413);
      assert.equal(tooLarge.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await tooLarge.json(), EXPECTED_REFUSAL[flavor]);
      const atLimit = await post(query + ' '.repeat(MAX_GRAPHQL_BODY_BYTES - query.length));
      assert.equal(atLimit.status, 200);
    });
  });
}
