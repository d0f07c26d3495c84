/** The proxy's log: the request lines the access-log stage writes, and the events beside them. */
import { ProxyError, scrub } from '../shared/errors.ts';
import type { AccessLogEntry } from './access-log.ts';
import type { Stage } from './compose.ts';

/** Where the proxy's log lines go: the host's logger, which may fail without failing a request. */
export class ProxyLog {
  constructor(
    private readonly logger: (entry: AccessLogEntry) => void,
    private readonly apiKey: string,
  ) {}

  /** A new line for a request of this method, or an event (`SCHEMA`, `STORE`, `LATE`…) named so. */
  entry(method: string): AccessLogEntry {
    return { time: new Date().toISOString(), method, status: 0, durationMs: 0 };
  }

  write(entry: AccessLogEntry): void {
    try {
      this.logger(entry);
    } catch {
      // A failing logger must not turn a served request into an error.
    }
  }

  /** Writes an event line: `method` names the event, `fields` say what happened. */
  event(method: string, fields: Partial<AccessLogEntry>): void {
    this.write({ ...this.entry(method), ...fields });
  }

  /** Text for the log, with the API key taken out. */
  scrub(text: string): string {
    return scrub(text, [this.apiKey]);
  }

  /** What the runtime said about a failed upstream call (e.g. a refused connection), for the log only. */
  noteCause(entry: AccessLogEntry, error: unknown): void {
    if (error instanceof ProxyError && typeof error.cause === 'string') entry.detail = this.scrub(error.cause);
  }
}

export function errorCode(error: unknown): string {
  return error instanceof ProxyError ? error.code : 'internal_error';
}

/** The first stage: once the answer is known, its status and time go in the request's line, which is written. */
export function accessLog(log: ProxyLog): Stage {
  return async (exchange, next) => {
    const started = performance.now();
    const response = await next();
    exchange.entry.status = response.status;
    exchange.entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
    log.write(exchange.entry);
    return response;
  };
}
