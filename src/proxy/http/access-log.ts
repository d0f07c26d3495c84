/**
 * The default access log: one JSON line per request on stdout. In Node the lines written in one turn
 * of the event loop go out in one write, after the responses of that turn, so a busy proxy pays one
 * write per turn instead of a synchronous console.log per request; the lines still waiting are
 * written when the process exits. Other runtimes (Workers, Deno, Bun) collect console.log per
 * request themselves: there it is one console.log per line.
 */
import type { AccessLogEntry } from '../index.ts';

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
