/** The proxy's stages: a request goes down through them in order, its answer comes back up. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compose, type Exchange, type Stage } from '../../../../src/proxy/http/compose.ts';
import { route } from '../../../../src/proxy/http/route.ts';
import { BUILT_IN_OPERATIONS } from '../../../../src/proxy/upstream/operations.ts';

function exchange(): Exchange {
  return {
    request: new Request('http://proxy.test/', { method: 'POST' }),
    context: {},
    entry: { time: '', method: 'POST', status: 0, durationMs: 0 },
    cors: {},
  };
}

describe('compose', () => {
  it('runs the stages in order going down, and their after-work in reverse order coming up', async () => {
    const seen: string[] = [];
    const stage =
      (name: string): Stage =>
      async (_, next) => {
        seen.push(`${name} down`);
        const response = await next();
        seen.push(`${name} up`);
        return response;
      };
    const answer: Stage = async () => {
      seen.push('answer');
      return new Response('done', { status: 201 });
    };
    const response = await compose([stage('a'), stage('b'), answer])(exchange());
    assert.equal(response.status, 201);
    assert.deepEqual(seen, ['a down', 'b down', 'answer', 'b up', 'a up']);
  });

  it('lets a stage answer without calling the ones below', async () => {
    let reached = false;
    const response = await compose([
      async () => new Response(null, { status: 204 }),
      async () => {
        reached = true;
        return new Response();
      },
    ])(exchange());
    assert.equal(response.status, 204);
    assert.equal(reached, false);
  });

  it('fails when the last stage passes the request on: no stage answered it', async () => {
    await assert.rejects(compose([async (_, next) => next()])(exchange()), /No stage of the proxy answered/);
  });

  it('carries what a stage learnt to the stages below, on the same exchange', async () => {
    const response = await compose([
      async (current, next) => {
        current.cors = { vary: 'Origin' };
        return next();
      },
      async (current) => new Response(JSON.stringify(current.cors)),
    ])(exchange());
    assert.deepEqual(await response.json(), { vary: 'Origin' });
  });
});

describe('route', () => {
  const answeredBy = (name: string) => async () => new Response(name);
  const handle = compose([route(answeredBy('query'), answeredBy('claim'))]);

  it('sends a query to the query stage and a mutation to the claim stage', async () => {
    for (const [name, expected] of [
      ['campaigns', 'query'],
      ['requestCoupon', 'claim'],
    ] as const) {
      const current = exchange();
      current.call = { name, operation: BUILT_IN_OPERATIONS[name]!, variables: {} };
      current.address = '192.0.2.1';
      assert.equal(await (await handle(current)).text(), expected);
    }
  });

  it('answers nothing for an exchange whose call was not read', async () => {
    await assert.rejects(handle(exchange()), /No stage of the proxy answered/);
  });
});
