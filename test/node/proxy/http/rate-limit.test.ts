/**
 * The rate limits' parts on their own (memory store): the address a client counts as, a rule's
 * window and its 429, and the rule settings refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyError } from '../../../../src/proxy/shared/errors.ts';
import {
  checkRateLimitRule,
  consumeRateLimit,
  rateLimitAddress,
  UNPARSABLE_ADDRESS,
  type RateLimitRule,
} from '../../../../src/proxy/http/rate-limit.ts';
import { createMemoryStore } from '../../../../src/proxy/stores/memory.ts';

describe('rateLimitAddress', () => {
  const cases: [string, string][] = [
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.000.113.007', '203.0.113.7'],
    ['198.51.100.9:40001', '198.51.100.9'],
    ['255.255.255.255', '255.255.255.255'],
    ['256.1.1.1', UNPARSABLE_ADDRESS],
    ['1.2.3.256', UNPARSABLE_ADDRESS],
    ['1.2.3', UNPARSABLE_ADDRESS],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:300.0.113.7', UNPARSABLE_ADDRESS],
    // A byte over 255 that would still fit a 16-bit group once shifted and joined.
    ['::ffff:1.300.0.1', UNPARSABLE_ADDRESS],
    ['::ffff:1.2.3.999', UNPARSABLE_ADDRESS],
    ['::ffff:1.2.3.255', '1.2.3.255'],
    ['::ffff:1.2.3.4:5', UNPARSABLE_ADDRESS],
    ['1.2.3.4.5', UNPARSABLE_ADDRESS],
    ['[2001:db8::1]x', UNPARSABLE_ADDRESS],
    ['x[2001:db8::1]', UNPARSABLE_ADDRESS],
    ['1::ffff:203.0.113.7', '1:0:0:0::/64'],
    ['::fffe:203.0.113.7', '0:0:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::abcd', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8::1]:443', '2001:db8:0:0::/64'],
    ['[2001:db8::1]', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4::/64'],
    ['1:2:3:4:5:6:7:8:9', UNPARSABLE_ADDRESS],
    ['1:2:3:4:5:6:7', UNPARSABLE_ADDRESS],
    ['1::2::3', UNPARSABLE_ADDRESS],
    ['1:2:3:4::5:6:7:8', UNPARSABLE_ADDRESS],
    ['12345::1', UNPARSABLE_ADDRESS],
    ['g::1', UNPARSABLE_ADDRESS],
    ['unknown', UNPARSABLE_ADDRESS],
    ['', UNPARSABLE_ADDRESS],
    ['example.com:80', UNPARSABLE_ADDRESS],
  ];
  for (const [address, counted] of cases)
    it(`counts ${JSON.stringify(address)} as ${counted}`, () => assert.equal(rateLimitAddress(address), counted));
});

describe('consumeRateLimit', () => {
  it('lets the limit through in its window, then answers 429 with the rest of the window', async () => {
    let time = 1_000_000;
    const store = createMemoryStore({ now: () => time });
    const rule = { limit: 2, windowSeconds: 60 };
    await consumeRateLimit(store, 'addr:a', rule);
    await consumeRateLimit(store, 'addr:a', rule);
    time += 20_500;
    await assert.rejects(consumeRateLimit(store, 'addr:a', rule, 'queries'), (error: unknown) => {
      assert.ok(error instanceof ProxyError);
      assert.equal(error.status, 429);
      assert.equal(error.code, 'rate_limited');
      assert.equal(error.message, 'Too many queries; try again in 40 s.');
      assert.deepEqual(error.headers, { 'retry-after': '40' });
      return true;
    });
    await consumeRateLimit(store, 'addr:b', rule);
    assert.equal(await store.get('addr:a'), undefined, 'counted under its own prefix');
    time += 39_500;
    await consumeRateLimit(store, 'addr:a', rule);
  });

  it('waits at least a second, and names coupon requests by default', async () => {
    let time = 0;
    const store = createMemoryStore({ now: () => time });
    const rule = { limit: 1, windowSeconds: 1 };
    await consumeRateLimit(store, 'k', rule);
    time += 999.9;
    await assert.rejects(consumeRateLimit(store, 'k', rule), {
      message: 'Too many coupon requests; try again in 1 s.',
      headers: { 'retry-after': '1' },
    });
  });

  it('counts nothing for a rule that is off', async () => {
    const store = createMemoryStore();
    for (let index = 0; index < 5; index += 1) await consumeRateLimit(store, 'k', false);
    assert.equal((await store.increment('rate:k', 1000)).count, 1);
  });
});

describe('checkRateLimitRule', () => {
  it('accepts a whole limit of at least 1 and a positive window, or false', () => {
    const rules: (RateLimitRule | false | undefined)[] = [
      { limit: 1, windowSeconds: 0.5 },
      { limit: 60, windowSeconds: 600 },
      false,
      undefined,
    ];
    for (const rule of rules) assert.doesNotThrow(() => checkRateLimitRule('perAddress', rule));
  });
  it('refuses anything else, naming the rule', () => {
    for (const rule of [
      { limit: 0, windowSeconds: 60 },
      { limit: 1.5, windowSeconds: 60 },
      { limit: Number.NaN, windowSeconds: 60 },
      { limit: 1, windowSeconds: 0 },
      { limit: 1, windowSeconds: -1 },
      { limit: 1, windowSeconds: Number.NaN },
    ])
      assert.throws(
        () => checkRateLimitRule('perShopper', rule),
        /rateLimits\.perShopper needs an integer "limit" ≥ 1/,
      );
  });
});
