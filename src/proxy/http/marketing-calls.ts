/**
 * How a browser's call goes to the Marketing API: a built-in operation through its fitted document
 * and page filling, with a normalized answer; a host's own operation as its document says.
 */
import type { BuiltInAnswer, BuiltInOperations, SendOperation } from '../upstream/built-ins.ts';
import type { UpstreamDocuments } from '../upstream/documents.ts';
import { BUILT_IN_OPERATIONS, type OperationCall } from '../upstream/operations.ts';
import { callUpstream, fetchField, withoutKey, type UpstreamSettings } from '../upstream/transport.ts';
import type { AccessLogEntry } from './access-log.ts';

export class MarketingCalls {
  constructor(
    readonly upstream: UpstreamSettings,
    readonly documents: UpstreamDocuments,
    readonly builtIns: BuiltInOperations,
  ) {}

  /** A built-in operation, and not a host's operation of the same name: its answers are normalized. */
  isBuiltIn(call: OperationCall): boolean {
    return BUILT_IN_OPERATIONS[call.name] === call.operation;
  }

  /** The one way a built-in operation's request goes upstream, with these variables (its document: documents.ts). */
  sendBuiltIn(call: OperationCall, retry: boolean, settings = this.upstream): SendOperation {
    return (variables) =>
      this.documents.attempt({ ...call, variables }, (request) =>
        fetchField(settings, request.query, request.variables, retry, call.name),
      );
  }

  /** A host's own operation, its document as the host wrote it (fitted only in what the documents change). */
  send(call: OperationCall, retry: boolean, settings = this.upstream): Promise<string> {
    return this.documents.attempt(call, (request) => callUpstream(settings, request.query, request.variables, retry));
  }

  /** Puts a built-in answer's counts in the access log and returns its body. */
  served(answer: BuiltInAnswer, entry: AccessLogEntry): string {
    entry.upstreamCalls = answer.upstreamCalls;
    if (answer.dropped) entry.dropped = answer.dropped;
    if (answer.partial) entry.partial = true;
    return withoutKey(answer.body, this.upstream.apiKey);
  }
}
