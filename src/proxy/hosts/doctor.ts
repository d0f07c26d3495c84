/**
 * `diagnoseUpstream()`: what a merchant checks before going live (the `loyalty-proxy doctor` command,
 * or a host at start-up). Is the Marketing API reachable, does it take the key, does it allow
 * introspection, does every persisted operation fit its schema field by field and argument by
 * argument, and do harmless sample queries answer? The key is never in any finding.
 *
 * Its own entry (`loyalty-widgets/proxy/doctor`), apart from the proxy's: only a host's own
 * operations are validated with graphql-js (an optional peer), loaded when there are any, so that a
 * bundler building the proxy never meets `graphql` and the doctor runs with only loyalty-widgets.
 */
import { OPERATION_SPECS } from '../upstream/document-specs.ts';
import { fitOperation } from '../upstream/document-fit.ts';
import { builtInSpec, chooseSpec, fixedSchema, UpstreamDocuments } from '../upstream/documents.ts';
import { ProxyError, scrub } from '../shared/errors.ts';
import { importWithPeers, MissingPeerDependencyError, type PeerNeed } from '../shared/peer-dependency.ts';
import { BUILT_IN_OPERATIONS, type PersistedOperation, type Variables } from '../upstream/operations.ts';
import {
  callUpstream,
  fetchField,
  fetchTransport,
  type UpstreamSettings,
  type UpstreamTransport,
} from '../upstream/transport.ts';
import { INTROSPECTION_QUERY, introspectOnce, type UpstreamSchema } from '../upstream/schema.ts';

export type { PersistedOperation, VariableRule, Variables } from '../upstream/operations.ts';
export type { UpstreamTransport, UpstreamRequest, UpstreamReply } from '../upstream/transport.ts';

export interface DiagnoseOptions {
  upstreamUrl: string;
  apiKey: string;
  /** The host's own operations (as given to createMarketingProxy): checked against the schema too. */
  operations?: Record<string, PersistedOperation>;
  /** Per request; default 10 000 ms. */
  timeoutMs?: number;
  transport?: UpstreamTransport;
}

/** `works`: fine as it is; `adapted`: works, differently from the spec's shapes; `cannot`: will fail. */
export type FindingLevel = 'works' | 'adapted' | 'cannot' | 'note';

export interface Finding {
  level: FindingLevel;
  /** What the finding is about: `upstream`, `key`, `introspection`, an operation name, `sample`. */
  subject: string;
  message: string;
  /** Whether going live with it is a mistake (unreachable, key refused, an operation that cannot work). */
  blocking: boolean;
}

export interface Diagnosis {
  upstreamUrl: string;
  /** No blocking finding. */
  ok: boolean;
  introspection: 'available' | 'unavailable' | 'not tried';
  findings: Finding[];
}

type Probe =
  | { kind: 'answered'; status: number; ms: number }
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'throttled' }
  | { kind: 'unreachable'; message: string }
  | { kind: 'not_graphql'; status: number };

/**
 * One cheap request (`{ __typename }`): reachable at all, and does the key pass?
 * @internal
 */
export async function probeUpstream(settings: UpstreamSettings): Promise<Probe> {
  const started = performance.now();
  let reply: { status: number; text: string };
  try {
    reply = await settings.transport({
      url: settings.url,
      body: JSON.stringify({ query: 'query LoyaltyProxyProbe { __typename }' }),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': settings.apiKey },
      timeoutMs: settings.timeoutMs,
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const code =
      (error as { code?: unknown; cause?: { code?: unknown } })?.cause?.code ?? (error as { code?: unknown })?.code;
    const why =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${settings.timeoutMs} ms`
        : `${typeof code === 'string' ? code : 'the connection failed'}`;
    return { kind: 'unreachable', message: why };
  }
  let body: { errors?: { message?: unknown; errorType?: unknown }[]; data?: unknown } | undefined;
  try {
    body = JSON.parse(reply.text) as typeof body;
  } catch {
    body = undefined;
  }
  if (reply.status === 401 || reply.status === 403) {
    const first = body?.errors?.[0];
    const type = typeof first?.errorType === 'string' ? first.errorType : '';
    const said = typeof first?.message === 'string' ? first.message : '';
    // AppSync's message may already start with its errorType ("UnauthorizedException: Invalid API key").
    const words = (type && !said.startsWith(type) ? [type, said] : [said || type])
      .filter(Boolean)
      .join(': ')
      .replace(/[.\s]+$/, '');
    return {
      kind: 'refused',
      status: reply.status,
      message: scrub(words || `HTTP ${reply.status}`, [settings.apiKey]),
    };
  }
  if (reply.status === 429) return { kind: 'throttled' };
  if (!body || typeof body !== 'object' || !('data' in body || 'errors' in body))
    return { kind: 'not_graphql', status: reply.status };
  return { kind: 'answered', status: reply.status, ms: Math.round(performance.now() - started) };
}

const GRAPHQL_PEERS: PeerNeed = {
  feature: "Checking a host's own operations (diagnoseUpstream's operations)",
  packages: ['graphql'],
};

/** Validates documents against the upstream's full schema with graphql-js. */
type DocumentValidator = (document: string) => string[];

/**
 * The validator for a host's documents, read once from the upstream; undefined when the upstream
 * gives no schema. Rejects with MissingPeerDependencyError when graphql is not installed.
 */
async function readValidator(settings: UpstreamSettings): Promise<DocumentValidator | undefined> {
  const graphql = await importWithPeers(() => import('graphql'), GRAPHQL_PEERS);
  let schema: ReturnType<typeof graphql.buildClientSchema>;
  try {
    const body = JSON.parse(await callUpstream(settings, graphql.getIntrospectionQuery(), {}, false)) as {
      data: unknown;
    };
    schema = graphql.buildClientSchema(body.data as Parameters<typeof graphql.buildClientSchema>[0]);
  } catch {
    return undefined;
  }
  return (document) => {
    try {
      return graphql.validate(schema, graphql.parse(document)).map((error) => error.message);
    } catch (error) {
      return [error instanceof Error ? error.message : String(error)];
    }
  };
}

export async function diagnoseUpstream(options: DiagnoseOptions): Promise<Diagnosis> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const settings: UpstreamSettings = {
    url: options.upstreamUrl,
    apiKey: options.apiKey,
    timeoutMs,
    transport: options.transport ?? fetchTransport((input, init) => fetch(input, init)),
  };
  const findings: Finding[] = [];
  const clean = (text: string) => scrub(text, [options.apiKey]);
  const add = (level: FindingLevel, subject: string, message: string, blocking = level === 'cannot') =>
    findings.push({ level, subject, message: clean(message), blocking });
  const done = (introspection: Diagnosis['introspection']): Diagnosis => ({
    upstreamUrl: options.upstreamUrl,
    ok: !findings.some((finding) => finding.blocking),
    introspection,
    findings,
  });

  if (!reportProbe(await probeUpstream(settings), add)) return done('not tried');
  const schema = await readSchema(settings, add);
  const operations: Record<string, PersistedOperation> = { ...BUILT_IN_OPERATIONS, ...options.operations };
  await checkOperations(settings, schema, operations, add);
  await runSamples(settings, schema, add);
  return done(schema ? 'available' : 'unavailable');
}

type Add = (level: FindingLevel, subject: string, message: string, blocking?: boolean) => void;

/** What the first call said about the upstream and the key: true when the checks can go on. */
function reportProbe(probe: Probe, add: Add): boolean {
  if (probe.kind === 'unreachable') {
    add('cannot', 'upstream', `The Marketing API cannot be reached (${probe.message}).`);
    return false;
  }
  if (probe.kind === 'refused') {
    add('works', 'upstream', `The Marketing API is reachable (it answered HTTP ${probe.status}).`);
    add(
      'cannot',
      'key',
      `The Marketing API refused MARKETING_API_KEY (HTTP ${probe.status}, ${probe.message}). Check the key and that it has not expired.`,
    );
    return false;
  }
  if (probe.kind === 'throttled') {
    add(
      'cannot',
      'upstream',
      'The Marketing API is throttling this key (HTTP 429): nothing could be checked. Run the doctor again in a minute.',
    );
    return false;
  }
  if (probe.kind === 'not_graphql') {
    add(
      'cannot',
      'upstream',
      `The address answers HTTP ${probe.status} without GraphQL JSON: is MARKETING_API_URL the GraphQL endpoint?`,
    );
    return false;
  }
  add('works', 'upstream', `The Marketing API answers GraphQL (HTTP ${probe.status}, ${probe.ms} ms).`);
  add('works', 'key', 'The key is accepted.');
  return true;
}

/** The upstream's schema by introspection, or undefined (and why) when it gives none. */
async function readSchema(settings: UpstreamSettings, add: Add): Promise<UpstreamSchema | undefined> {
  const outcome = await introspectOnce(() => callUpstream(settings, INTROSPECTION_QUERY, {}, false));
  const schema: UpstreamSchema | undefined = outcome.kind === 'schema' ? outcome.schema : undefined;
  if (schema)
    add(
      'works',
      'introspection',
      `Introspection is available (${schema.types.size} types): documents are fitted to the schema.`,
    );
  else
    add(
      'adapted',
      'introspection',
      `Introspection is unavailable (${outcome.kind === 'schema' ? '' : outcome.reason}): documents carry literal values and ask for the spec's fields as they are.`,
    );
  return schema;
}

/** Each operation against the schema: a built-in one by how its document fits, a host's by GraphQL validation. */
async function checkOperations(
  settings: UpstreamSettings,
  schema: UpstreamSchema | undefined,
  operations: Record<string, PersistedOperation>,
  add: Add,
): Promise<void> {
  const hostDocuments = Object.entries(operations).some(
    ([name, operation]) => !builtInSpec({ name, operation }) && typeof operation.document === 'string',
  );
  const validator: DocumentValidator | MissingPeerDependencyError | undefined =
    schema && hostDocuments
      ? await readValidator(settings).catch((error: unknown) => {
          if (error instanceof MissingPeerDependencyError) return error;
          throw error;
        })
      : undefined;
  for (const [name, operation] of Object.entries(operations)) {
    const spec = builtInSpec({ name, operation });
    if (!spec) {
      checkHostOperation(name, operation, validator, add);
      continue;
    }
    if (!schema) continue;
    const fit = fitOperation(schema, spec);
    for (const problem of fit.problems) add('cannot', name, problem);
    for (const adaptation of fit.adaptations) add('adapted', name, adaptation);
    if (fit.problems.length === 0) add('works', name, `${name} fits the schema.`);
    if (name === 'campaigns' && fit.problems.length === 0) reportCampaignIndex(schema, add);
  }
}

/** Which query one business account's campaigns are read with: the upstream's index, or a filtered scan. */
function reportCampaignIndex(schema: UpstreamSchema, add: Add): void {
  const chosen = chooseSpec(
    { name: 'campaigns', variables: { businessAccountId: '' } },
    OPERATION_SPECS.campaigns!,
    schema,
  );
  if (chosen.spec.alias) {
    add(
      'works',
      'campaigns',
      `campaigns of one business account are read through the index query ${chosen.spec.field}(businessAccountId), which reads only that account's rows.`,
    );
    return;
  }
  add(
    'adapted',
    'campaigns',
    'campaigns of one business account are read by a filtered scan of every campaign (the schema has no query field ' +
      'returning the campaigns connection with businessAccountId as its one required argument): a page may take several ' +
      'upstream calls, and an account whose campaigns come late in the table needs many. Add an @index on Campaign.businessAccountId with a queryField.',
  );
}

function checkHostOperation(
  name: string,
  operation: PersistedOperation,
  validator: DocumentValidator | MissingPeerDependencyError | undefined,
  add: Add,
): void {
  if (typeof operation.document !== 'string') {
    add('note', name, `${name} builds its document per call: not checked.`);
  } else if (validator instanceof MissingPeerDependencyError) {
    add('note', name, `${name} (the host's): not checked. ${validator.message}`);
  } else if (!validator) {
    add('note', name, `${name} (the host's): not checked without introspection.`);
  } else {
    const problems = validator(operation.document);
    for (const problem of problems) add('cannot', name, problem);
    if (problems.length === 0) add('works', name, `${name} (the host's) fits the schema.`);
  }
}

/** Harmless reads through the proxy's own documents: one campaign page, one account page, one campaign. */
async function runSamples(settings: UpstreamSettings, schema: UpstreamSchema | undefined, add: Add): Promise<void> {
  const documents = new UpstreamDocuments(fixedSchema(schema));
  const sample = async (name: string, variables: Variables, describe: (data: unknown) => string): Promise<unknown> => {
    try {
      const { value: data } = await documents.attempt(
        { name, operation: BUILT_IN_OPERATIONS[name]!, variables },
        (request) => fetchField(settings, request.query, request.variables, false, OPERATION_SPECS[name]!.field),
      );
      add('works', 'sample', `${name} ${JSON.stringify(variables)}: ${describe(data)}.`);
      return data;
    } catch (error) {
      const why = error instanceof ProxyError ? `${error.code}: ${error.message}` : String(error);
      add('cannot', 'sample', `${name} ${JSON.stringify(variables)} failed (${why}).`);
      return undefined;
    }
  };
  const count = (data: unknown) => `${((data as { items?: unknown[] })?.items ?? []).length} item(s)`;
  const page = (await sample('campaigns', { limit: 1 }, count)) as { items?: { id?: unknown }[] } | undefined;
  await sample('businessAccounts', { limit: 1 }, count);
  const id = page?.items?.[0]?.id;
  if (typeof id === 'string') await sample('campaign', { id }, (data) => (data ? 'found' : 'null'));
  if (!schema) {
    add(
      'note',
      'requestCoupon',
      'requestCoupon is not tried (it would create a coupon) and cannot be checked without introspection.',
    );
    add(
      'note',
      'businessAccounts',
      'Whether businessAccounts can filter by category cannot be checked without introspection.',
    );
  }
}

const SECTIONS: [FindingLevel, string][] = [
  ['works', 'Will work'],
  ['adapted', 'Adapted'],
  ['cannot', 'Cannot work'],
  ['note', 'Not checked'],
];

/** The diagnosis as the plain report `loyalty-proxy doctor` prints. */
export function formatDiagnosis(diagnosis: Diagnosis): string {
  const lines = [`Marketing API: ${diagnosis.upstreamUrl}`];
  for (const [level, title] of SECTIONS) {
    const findings = diagnosis.findings.filter((finding) => finding.level === level);
    if (findings.length === 0) continue;
    lines.push('', `${title}:`, ...findings.map((finding) => `  - [${finding.subject}] ${finding.message}`));
  }
  const blocking = diagnosis.findings.filter((finding) => finding.blocking).length;
  lines.push(
    '',
    !diagnosis.ok
      ? `Not ready: ${blocking} blocking problem${blocking === 1 ? '' : 's'} (listed under "Cannot work").`
      : diagnosis.introspection === 'available'
        ? 'Ready: the proxy can serve every built-in operation.'
        : 'Ready as far as could be checked (see "Not checked").',
  );
  return `${lines.join('\n')}\n`;
}
