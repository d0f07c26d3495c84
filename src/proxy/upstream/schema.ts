/**
 * The Marketing API's schema as the proxy reads it through GraphQL introspection: just the parts that
 * documents are built from (fields, their arguments and types, input fields, union members). Read once
 * per proxy on first use, shared by concurrent callers, read again after the upstream refused a
 * document as invalid, and never more often than a floor allows, so a broken upstream is not asked on
 * every request. Everything here comes from the upstream and is checked before use: a name that is
 * not a GraphQL name is dropped, so nothing the upstream says can inject text into a document.
 */
import { ProxyError } from '../shared/errors.ts';

export interface TypeRef {
  kind: string;
  name?: string;
  ofType?: TypeRef;
}

export interface UpstreamField {
  args: ReadonlyMap<string, TypeRef>;
  /** Arguments that must be given: non-null and without a default. */
  requiredArgs: readonly string[];
  type: TypeRef;
}

export interface UpstreamType {
  kind: string;
  fields: ReadonlyMap<string, UpstreamField>;
  inputFields: ReadonlyMap<string, TypeRef>;
  possibleTypes: readonly string[];
}

export interface UpstreamSchema {
  queryType?: string;
  mutationType?: string;
  types: ReadonlyMap<string, UpstreamType>;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
const FIELD_REF = `name type { ${TYPE_REF} }`;

/** Only what documents need; no descriptions or directives (AppSync schemas run to hundreds of kB with them). */
export const INTROSPECTION_QUERY =
  `query LoyaltyProxySchema { __schema { queryType { name } mutationType { name } ` +
  `types { kind name fields(includeDeprecated: true) { ${FIELD_REF} args { ${FIELD_REF} defaultValue } } inputFields { ${FIELD_REF} } possibleTypes { name } } } }`;

const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;

export const isGraphQLName = (value: unknown): value is string => typeof value === 'string' && NAME.test(value);

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function typeRefOf(value: unknown, depth = 0): TypeRef | undefined {
  const ref = record(value);
  if (!ref || typeof ref.kind !== 'string' || depth > 8) return undefined;
  if (ref.kind === 'NON_NULL' || ref.kind === 'LIST') {
    const ofType = typeRefOf(ref.ofType, depth + 1);
    return ofType && { kind: ref.kind, ofType };
  }
  return isGraphQLName(ref.name) ? { kind: ref.kind, name: ref.name } : undefined;
}

function namedRefs(value: unknown): Map<string, TypeRef> {
  const refs = new Map<string, TypeRef>();
  for (const item of list(value)) {
    const entry = record(item);
    const type = typeRefOf(entry?.type);
    if (entry && isGraphQLName(entry.name) && type) refs.set(entry.name, type);
  }
  return refs;
}

/** The schema from an introspection answer's `data`, or undefined when it holds none. */
export function readIntrospection(data: unknown): UpstreamSchema | undefined {
  const schema = record(record(data)?.__schema);
  if (!schema || !Array.isArray(schema.types)) return undefined;
  const types = new Map<string, UpstreamType>();
  for (const item of schema.types) {
    const type = record(item);
    if (!type || !isGraphQLName(type.name) || typeof type.kind !== 'string') continue;
    const fields = new Map<string, UpstreamField>();
    for (const fieldItem of list(type.fields)) {
      const field = record(fieldItem);
      const fieldType = typeRefOf(field?.type);
      if (!field || !isGraphQLName(field.name) || !fieldType) continue;
      const args = namedRefs(field.args);
      const requiredArgs = list(field.args).flatMap((arg) => {
        const entry = record(arg);
        const required =
          isGraphQLName(entry?.name) && args.get(entry.name)?.kind === 'NON_NULL' && entry.defaultValue == null;
        return required ? [entry!.name as string] : [];
      });
      fields.set(field.name, { args, requiredArgs, type: fieldType });
    }
    const possibleTypes = list(type.possibleTypes).flatMap((possible) => {
      const name = record(possible)?.name;
      return isGraphQLName(name) ? [name] : [];
    });
    types.set(type.name, { kind: type.kind, fields, inputFields: namedRefs(type.inputFields), possibleTypes });
  }
  const rootName = (value: unknown) => {
    const name = record(value)?.name;
    return isGraphQLName(name) ? name : undefined;
  };
  return { queryType: rootName(schema.queryType), mutationType: rootName(schema.mutationType), types };
}

/** A type reference as GraphQL writes it: `ID!`, `[String]`, `ModelCampaignFilterInput`. */
export function printTypeRef(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL') return `${printTypeRef(ref.ofType!)}!`;
  if (ref.kind === 'LIST') return `[${printTypeRef(ref.ofType!)}]`;
  return ref.name!;
}

/** The named type under any list and non-null wrappers. */
export function namedType(ref: TypeRef): string {
  return ref.ofType ? namedType(ref.ofType) : ref.name!;
}

/** Whether the upstream answered in GraphQL and said no (introspection disabled), rather than failed to answer. */
export type SchemaOutcome =
  { kind: 'schema'; schema: UpstreamSchema } | { kind: 'refused'; reason: string } | { kind: 'failed'; reason: string };

/** Sends the introspection query: resolves to the upstream's `{"data": …}` body or rejects with a ProxyError. */
export type Introspect = () => Promise<string>;

/** Whether an upstream error says the document does not fit its schema (graphql-js and graphql-java wordings). */
export function isSchemaMismatch(error: unknown): boolean {
  if (!(error instanceof ProxyError)) return false;
  return (
    ['upstream_schema_mismatch', 'graphql_validation_failed', 'validationerror'].includes(error.code) ||
    /^Validation error/i.test(error.message)
  );
}

/** Asks the upstream once and says what came of it. */
export async function introspectOnce(introspect: Introspect): Promise<SchemaOutcome> {
  let body: string;
  try {
    body = await introspect();
  } catch (error) {
    const reason = error instanceof ProxyError ? error.message : 'the request failed';
    // An upstream that validated the query and said no (introspection switched off) stays so; any other
    // failure (down, slow, key refused, throttled, a broken answer) may be over soon.
    return { kind: isSchemaMismatch(error) ? 'refused' : 'failed', reason };
  }
  let schema: UpstreamSchema | undefined;
  try {
    schema = readIntrospection((JSON.parse(body) as { data?: unknown }).data);
  } catch {
    schema = undefined;
  }
  return schema ? { kind: 'schema', schema } : { kind: 'refused', reason: 'the answer holds no __schema' };
}

export interface SchemaCacheOptions {
  introspect: Introspect;
  /** Least time between two introspections (after a failure, or when a document was refused). */
  minIntervalMs: number;
  /** Told when the proxy stops using the upstream's schema (or never had it), and when it has it again. */
  onChange: (outcome: SchemaOutcome) => void;
  now?: () => number;
}

/**
 * One proxy's view of the upstream schema. `get()` resolves to the schema, or undefined while none
 * could be read (then documents use literal values and no type names).
 */
export class UpstreamSchemaCache {
  private schema: UpstreamSchema | undefined;
  private askedAt: number | undefined;
  /** Ask again once the floor has passed: the last attempt got no answer, or a document was refused. */
  private askAgain = false;
  private inFlight: Promise<UpstreamSchema | undefined> | undefined;
  private inUse: 'schema' | 'none' | undefined;
  private readonly now: () => number;

  constructor(private readonly options: SchemaCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get(): Promise<UpstreamSchema | undefined> {
    if (this.inFlight) return this.inFlight;
    const due =
      this.askedAt === undefined || (this.askAgain && this.now() - this.askedAt >= this.options.minIntervalMs);
    if (!due) return Promise.resolve(this.schema);
    this.inFlight = this.read().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /**
   * The upstream refused a document as invalid: its schema may have changed. Resolves to the schema
   * read again, or undefined when the floor does not allow asking yet (or no schema came back).
   */
  async refresh(): Promise<{ schema: UpstreamSchema | undefined; changed: boolean }> {
    const before = this.schema;
    if (!this.inFlight) this.askAgain = true;
    const schema = await this.get();
    return { schema, changed: schema !== before };
  }

  private async read(): Promise<UpstreamSchema | undefined> {
    this.askedAt = this.now();
    const outcome = await introspectOnce(this.options.introspect);
    if (outcome.kind === 'schema') this.schema = outcome.schema;
    // An upstream that said no has no schema to offer: the one read before may be what it refuses now.
    if (outcome.kind === 'refused') this.schema = undefined;
    this.askAgain = outcome.kind === 'failed';
    // Said once per change: a failure that leaves the last schema in use changes nothing.
    const kind = this.schema ? 'schema' : 'none';
    if (kind !== this.inUse && (this.inUse !== undefined || kind === 'none')) this.options.onChange(outcome);
    this.inUse = kind;
    return this.schema;
  }
}

/** Least time between two readings of the upstream schema (after a failure or a refused document). */
export const DEFAULT_SCHEMA_REFRESH_MS = 30_000;

/** `createMarketingProxy`'s `introspection` option: off, on (the default), or on with another floor. */
export type IntrospectionOption = boolean | { minIntervalMs: number };

/** The `introspection` option as the least time between two readings, or false when introspection is off. */
export function introspectionInterval(option: IntrospectionOption | undefined): number | false {
  if (option === false) return false;
  const minIntervalMs = typeof option === 'object' ? option.minIntervalMs : DEFAULT_SCHEMA_REFRESH_MS;
  if (!(minIntervalMs >= 0))
    throw new TypeError('createMarketingProxy: "introspection.minIntervalMs" must be a number ≥ 0.');
  return minIntervalMs;
}

/** The proxy's schema cache, or undefined when introspection is off. */
export function createSchemaCache(
  minIntervalMs: number | false,
  introspect: Introspect,
  onChange: SchemaCacheOptions['onChange'],
): UpstreamSchemaCache | undefined {
  return minIntervalMs === false ? undefined : new UpstreamSchemaCache({ introspect, minIntervalMs, onChange });
}
