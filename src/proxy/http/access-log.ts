/**
 * The default access log: one JSON line per request on stdout. In Node the lines written in one turn
 * of the event loop go out in one write, after the responses of that turn, so a busy proxy pays one
 * write per turn instead of a synchronous console.log per request; the lines still waiting are
 * written when the process exits. Other runtimes (Workers, Deno, Bun) collect console.log per
 * request themselves: there it is one console.log per line.
 *
 * A line is written field by field rather than by JSON.stringify, and an entry's time formats one
 * Date per second rather than one per request: together they took most of the log's CPU, which a
 * busy proxy spends on every answer (`npm run bench` prints it per line).
 */
import type { CacheState } from './cache.ts';

/** One line of the access log: no secrets, no tokens, no variables. */
export interface AccessLogEntry {
  time: string;
  method: string;
  operation?: string;
  status: number;
  durationMs: number;
  cache?: CacheState;
  replayed?: boolean;
  error?: string;
  /** For unexpected (500) failures, unreachable upstreams, configuration problems and `SCHEMA` entries: what went wrong, with secrets removed. */
  detail?: string;
  /** Built-in operations: records left out of the answer because the widgets cannot use them. */
  dropped?: number;
  /** Built-in operations: upstream calls made for this answer (more than one when filling a page). */
  upstreamCalls?: number;
  /** Built-in operations: upstream errors came with usable data, which was served. */
  partial?: boolean;
  /** `STORE` entries, when the store answers again: how many of the reads' store operations failed meanwhile. */
  failures?: number;
}

/** The fields jsonLine writes: a field added to AccessLogEntry and not written there fails to compile. */
type Written =
  | 'time'
  | 'method'
  | 'operation'
  | 'status'
  | 'durationMs'
  | 'cache'
  | 'replayed'
  | 'error'
  | 'detail'
  | 'dropped'
  | 'upstreamCalls'
  | 'partial'
  | 'failures';
const everyFieldWritten: [Exclude<keyof AccessLogEntry, Written>] extends [never] ? true : never = true;
void everyFieldWritten;

/** A character JSON escapes: a quote, a backslash, a control character, or half of a surrogate pair. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
const text = (value: string) => (ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`);
const number = (value: number) => (Number.isFinite(value) ? String(value) : 'null');

/**
 * An entry as one line of JSON (what JSON.stringify writes, its fields in this order). The time
 * (isoTime's) and the cache state need no escaping; every other text is checked.
 */
export function jsonLine(entry: AccessLogEntry): string {
  let line = `{"time":"${entry.time}","method":${text(entry.method)}`;
  if (entry.operation !== undefined) line += `,"operation":${text(entry.operation)}`;
  line += `,"status":${number(entry.status)},"durationMs":${number(entry.durationMs)}`;
  if (entry.cache !== undefined) line += `,"cache":"${entry.cache}"`;
  if (entry.replayed !== undefined) line += `,"replayed":${entry.replayed === true}`;
  if (entry.error !== undefined) line += `,"error":${text(entry.error)}`;
  if (entry.detail !== undefined) line += `,"detail":${text(entry.detail)}`;
  if (entry.dropped !== undefined) line += `,"dropped":${number(entry.dropped)}`;
  if (entry.upstreamCalls !== undefined) line += `,"upstreamCalls":${number(entry.upstreamCalls)}`;
  if (entry.partial !== undefined) line += `,"partial":${entry.partial === true}`;
  if (entry.failures !== undefined) line += `,"failures":${number(entry.failures)}`;
  return `${line}}`;
}

/** The second last formatted (ms since epoch), and its ISO text up to the milliseconds' digits. */
let second = Number.NaN;
let secondText = '';

/** `new Date(now).toISOString()`, formatting a Date once per second. */
export function isoTime(now = Date.now()): string {
  const milliseconds = ((now % 1000) + 1000) % 1000;
  if (now - milliseconds !== second) {
    second = now - milliseconds;
    secondText = new Date(second).toISOString().slice(0, -4);
  }
  return `${secondText}${milliseconds < 10 ? '00' : milliseconds < 100 ? '0' : ''}${milliseconds}Z`;
}

interface NodeProcess {
  stdout: { write(text: string): boolean };
  once(event: 'exit', listener: () => void): unknown;
}

let pending = '';
let flushing = false;
let exitHooked = false;

function nodeProcess(): NodeProcess | undefined {
  const agent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  const candidate = (globalThis as { process?: Partial<NodeProcess> }).process;
  return agent?.startsWith('Node.js/') && typeof candidate?.stdout?.write === 'function' && candidate.once
    ? (candidate as NodeProcess)
    : undefined;
}

export function jsonLineWriter(): (entry: AccessLogEntry) => void {
  const node = nodeProcess();
  if (!node) return (entry) => console.log(jsonLine(entry));
  const flush = () => {
    flushing = false;
    const text = pending;
    pending = '';
    if (text) node.stdout.write(text);
  };
  if (!exitHooked) {
    exitHooked = true;
    node.once('exit', flush);
  }
  return (entry) => {
    pending += `${jsonLine(entry)}\n`;
    if (flushing) return;
    flushing = true;
    setImmediate(flush);
  };
}
