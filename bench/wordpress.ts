/**
 * The WordPress plugin's own Marketing proxy beside the Node proxy, each in front of its own sandbox
 * as the contract suite sets them up (test/contract/support/targets.ts): the latency of a cached read
 * (`campaigns`, limit 10, after its first miss) and of a coupon claim with a new Idempotency-Key (one
 * mint upstream and its record), one request at a time over one connection each. One run, no aim:
 * PHP boots WordPress for every request, which is most of the plugin's figure.
 */
import { missingPrograms } from '../test/wordpress/support/wordpress.ts';
import { startNodeTarget, startWordPressTarget, type ProxyTarget } from '../test/contract/support/targets.ts';

const READS = 200;
/** Under the default per-address limit of 60 mints in 10 minutes, each claim from its own browser. */
const CLAIMS = 40;

export interface RouteFigures {
  label: string;
  read: { p50: number; p99: number };
  claim: { p50: number; p99: number };
}

function percentiles(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function timed(target: ProxyTarget, body: object, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(target.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: target.origin, ...headers },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target.name} answered ${response.status}`);
  return performance.now() - started;
}

async function measure(label: string, start: () => Promise<ProxyTarget>): Promise<RouteFigures> {
  const target = await start();
  try {
    const read = { operation: 'campaigns', variables: { limit: 10 } };
    await timed(target, read, {});
    const reads: number[] = [];
    for (let index = 0; index < READS; index++) reads.push(await timed(target, read, {}));
    const claims: number[] = [];
    for (let index = 0; index < CLAIMS; index++) {
      claims.push(
        await timed(
          target,
          { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
          { 'idempotency-key': `bench-${index}`, 'user-agent': `bench shopper ${index}` },
        ),
      );
    }
    return { label, read: percentiles(reads), claim: percentiles(claims) };
  } finally {
    await target.close();
  }
}

export async function benchWordPressRoute(): Promise<RouteFigures[] | string> {
  const missing = missingPrograms();
  if (missing.length) return `skipped: apt-get install ${missing.join(' ')}`;
  return [await measure('Node proxy', startNodeTarget), await measure('WordPress route', startWordPressTarget)];
}

export function printWordPressRouteFigures(result: RouteFigures[] | string): void {
  console.log(
    `\nThe WordPress plugin's proxy beside the Node proxy: ${READS} cached reads (campaigns, limit 10) and ${CLAIMS} claims with a new Idempotency-Key each, one at a time:`,
  );
  if (typeof result === 'string') {
    console.log(result);
    return;
  }
  const ms = (value: number) => value.toFixed(2).padStart(9);
  console.log(
    `${'target'.padEnd(18)}${'read p50'.padStart(9)}${'read p99'.padStart(10)}${'claim p50'.padStart(10)}${'claim p99'.padStart(10)}  (ms)`,
  );
  for (const { label, read, claim } of result) {
    console.log(`${label.padEnd(18)}${ms(read.p50)} ${ms(read.p99)} ${ms(claim.p50)} ${ms(claim.p99)}`);
  }
}
