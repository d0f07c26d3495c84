/**
 * The query stage: a read of campaigns or business accounts, answered from the cache or loaded
 * upstream. Each load spends the merchant's key, so misses count against the client's address (hits
 * are free), and a forged page cursor is refused before anything is read.
 */
import { waitUntilOf, type RuntimeContext } from './runtime-context.ts';
import { NO_STORE, ProxyError } from '../shared/errors.ts';
import type { ProxyStore } from '../stores/contract.ts';
import { canonicalVariables, type OperationCall, type Variables } from '../upstream/operations.ts';
import type { AccessLogEntry } from './access-log.ts';
import type { ProxyLog } from './log.ts';
import type { CacheState, ResponseCache } from './cache.ts';
import type { MarketingCalls } from './marketing-calls.ts';
import { consumeRateLimit, type RateLimitRule } from './rate-limit.ts';
import type { CallHandler } from './route.ts';
import { readAnswer } from './validators.ts';

export interface QueryServices {
  calls: MarketingCalls;
  cache: ResponseCache | undefined;
  store: ProxyStore;
  /** The rule for upstream calls per address (`rateLimits.queryMisses`). */
  misses: RateLimitRule | false;
  log: ProxyLog;
}

/** A query's body, from the cache or loaded (each upstream call counted against the address's misses). */
export type QueryReader = (
  call: OperationCall,
  entry: AccessLogEntry,
  address: string,
  context: RuntimeContext,
) => Promise<{ body: string; state?: CacheState }>;

export function queryReader({ calls, cache, store, misses, log }: QueryServices): QueryReader {
  return async (call, entry, address, context) => {
    const builtIn = calls.isBuiltIn(call);
    // Which upstream field the list is read through (a business account's index, or the list itself).
    const source = builtIn ? await calls.documents.fieldFor(call) : call.name;
    // A forged page cursor is refused first: it costs no cache read and no count.
    if (builtIn) await calls.builtIns.checkCursor(call.name, call.variables, source);
    // Each upstream call spends the merchant's key: misses count per address, hits are free.
    const countMiss = () =>
      consumeRateLimit(store, `query:${address}`, misses, 'queries').then(
        () => log.storeReads.answered(),
        (error: unknown) => {
          // A store that cannot count must not stop reads (they skip the cache the same way); only the limit refuses.
          if (error instanceof ProxyError && error.status === 429) throw error;
          log.storeReads.failed(error);
        },
      );
    // The miss itself is counted once (before it loads); each further call that fills its page counts too,
    // so a list that is nearly all other records costs the address what it costs the key.
    const send = calls.sendBuiltIn(call, true);
    let sent = 0;
    const countedSend = async (variables: Variables) => {
      if (sent++ > 0) await countMiss();
      return send(variables);
    };
    const load = builtIn
      ? async () => calls.served(await calls.builtIns.query(call.name, call.variables, countedSend, source), entry)
      : () => calls.send(call, true);
    if (!cache) return countMiss().then(async () => ({ body: await load() }));
    return cache.get(`${call.name}:${canonicalVariables(call.variables)}`, load, {
      beforeMiss: countMiss,
      waitUntil: waitUntilOf(context),
    });
  };
}

/** The query stage's answer: the body, with the cache's headers when it came through the cache. */
export function answerQuery(read: QueryReader, cache: ResponseCache | undefined): CallHandler {
  return async ({ request, entry, cors, context, call, address }) => {
    const { body, state } = await read(call, entry, address, context);
    if (!cache || !state) return readAnswer(request, body, { 'cache-control': NO_STORE, ...cors });
    entry.cache = state;
    return readAnswer(request, body, { 'cache-control': cache.cacheControl, 'x-cache': state, ...cors });
  };
}
