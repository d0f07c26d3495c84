/**
 * The default access log: one JSON line per request on stdout. In Node the lines written in one turn
 * of the event loop go out in one write, after the responses of that turn, so a busy proxy pays one
 * write per turn instead of a synchronous console.log per request; the lines still waiting are
 * written when the process exits. Other runtimes (Workers, Deno, Bun) collect console.log per
 * request themselves: there it is one console.log per line.
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
  if (!node) return (entry) => console.log(JSON.stringify(entry));
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
    pending += `${JSON.stringify(entry)}\n`;
    if (flushing) return;
    flushing = true;
    setImmediate(flush);
  };
}
