/**
 * The Lua scripts the Redis store runs, each one round trip and atomic, and the commands the store
 * sends through node-redis, the same on one Redis and on a cluster.
 */
import type { ClaimCounter, ClaimResult, CounterState } from './contract.ts';
import { defineScript } from './redis-peer.ts';

/**
 * Tells a Redis that lost its data from one that kept it: a key that names the store's life. Missing
 * at a client's first connection, it is created as `fresh:<time>`; missing, or another than the one
 * this client saw, at a reconnection, the data is gone and it becomes `lost:<time>` (Redis's clock).
 * A client whose first connection failed before it succeeded (Redis was down, and may have come back
 * empty) takes a missing key as lost too.
 */
const EPOCH_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local current = redis.call('GET', KEYS[1])
if not current or (ARGV[1] ~= '' and current ~= ARGV[1] and string.sub(current, 1, 5) ~= 'lost:') then
  if ARGV[1] == '' and ARGV[2] ~= '1' and not current then current = 'fresh:' .. now else current = 'lost:' .. now end
  redis.call('SET', KEYS[1], current)
end
return { current, now }`;

// One round trip, atomic: the window starts with the first increment and never extends.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

/**
 * A coupon claim's first step (ProxyStore.claim), atomic: the value holding KEYS[1]; or each counter
 * (KEYS[2..]: window ARGV[2i-1], limit ARGV[2i]) counted as INCREMENT_SCRIPT does, stopping at the
 * first past its limit; or, all within their limits, KEYS[1] set to ARGV[1] for ARGV[2] ms.
 */
const CLAIM_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current then return { 'held', current } end
for i = 2, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[2 * i - 1])
    ttl = tonumber(ARGV[2 * i - 1])
  end
  if count > tonumber(ARGV[2 * i]) then return { 'limited', i - 2, count, ttl } end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return { 'taken' }`;

/**
 * The scripts, sent by SHA (EVALSHA); node-redis sends a script's text (EVAL, which also loads it)
 * only when Redis answers NOSCRIPT: the first time, and after a restart or SCRIPT FLUSH.
 */
export const SCRIPTS = {
  claim: defineScript({
    SCRIPT: CLAIM_SCRIPT,
    parseCommand(parser, keys: string[], args: string[]) {
      parser.pushKeysLength(keys);
      parser.push(...args);
    },
    transformReply: (reply: unknown) => reply as never,
  }),
  increment: defineScript({
    SCRIPT: INCREMENT_SCRIPT,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser, key: string, windowMs: string) {
      parser.pushKey(key);
      parser.push(windowMs);
    },
    transformReply: (reply: unknown) => reply as never,
  }),
  epoch: defineScript({
    SCRIPT: EPOCH_SCRIPT,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser, key: string, known: string, sawOutage: string) {
      parser.pushKey(key);
      parser.push(known, sawOutage);
    },
    transformReply: (reply: unknown) => reply as never,
  }),
};

/** The commands the store sends, the same on one Redis and on a cluster. */
export interface Commands {
  get(key: string): Promise<string | null>;
  set(
    key: string,
    value: string,
    options: { condition?: 'NX'; expiration: { type: 'PX'; value: number } },
  ): Promise<string | null>;
  del(key: string): Promise<number>;
  claim(keys: string[], args: string[]): Promise<unknown>;
  increment(key: string, windowMs: string): Promise<unknown>;
  epoch(key: string, known: string, sawOutage: string): Promise<unknown>;
  readonly isReady: boolean;
}

/** What INCREMENT_SCRIPT answers: the count and the milliseconds left in its window. */
export function counterStateOf(reply: unknown): CounterState {
  const [count, resetMs] = reply as [number, number];
  return { count: Number(count), resetMs: Number(resetMs) };
}

/** What CLAIM_SCRIPT answers, as ProxyStore.claim says it. */
export function claimResultOf(reply: unknown): ClaimResult {
  const [kind, ...rest] = reply as [string, ...Array<string | number>];
  if (kind === 'held') return { kind: 'held', value: String(rest[0]) };
  if (kind === 'limited') {
    return { kind: 'limited', counter: Number(rest[0]), state: counterStateOf(rest.slice(1)) };
  }
  return { kind: 'taken' };
}

/** CLAIM_SCRIPT's arguments: the lock's value and time to live, then each counter's window and limit. */
export function claimArgs(value: string, ttlMs: number, counters: readonly ClaimCounter[]): string[] {
  return [
    value,
    String(milliseconds(ttlMs)),
    ...counters.flatMap((counter) => [String(milliseconds(counter.windowMs)), String(counter.limit)]),
  ];
}

/** A duration as Redis takes it: whole milliseconds, at least one. */
export function milliseconds(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}
