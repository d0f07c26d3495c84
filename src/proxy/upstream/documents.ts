/**
 * What the proxy sends upstream for a call: the document and variables. Built-in operations are fitted
 * to the upstream's schema (read by introspection, see schema.ts); a host's own operations go
 * as the host wrote them. After the upstream refuses a document as invalid, the schema is read again
 * (within the floor) and the call is tried once more: an invalid document never ran, so even a coupon
 * request is safe to send again.
 */
import { campaignsByIndexSpec, OPERATION_SPECS, type OperationSpec } from './document-specs.ts';
import { campaignIndexField, fitOperation, literalFit, type OperationFit } from './document-fit.ts';
import { ProxyError } from '../shared/errors.ts';
import { BUILT_IN_OPERATIONS, documentFor, type OperationCall } from './operations.ts';
import { isSchemaMismatch, type UpstreamSchema } from './schema.ts';

export { isSchemaMismatch } from './schema.ts';

/** One upstream request for a call. */
export interface DocumentRequest {
  query: string;
  variables: Record<string, unknown>;
}

/** The built-in operation a call runs, unless a host replaced it with its own document. */
export function builtInSpec(call: Pick<OperationCall, 'name' | 'operation'>): OperationSpec | undefined {
  return Object.hasOwn(BUILT_IN_OPERATIONS, call.name) && BUILT_IN_OPERATIONS[call.name] === call.operation
    ? OPERATION_SPECS[call.name]
    : undefined;
}

const fitsBySchema = new WeakMap<UpstreamSchema, Map<string, OperationFit>>();
const literalFits = new Map<string, OperationFit>();

/** The fit of a built-in operation to a schema (memoized per schema), or its literal form without one. */
export function fitFor(name: string, spec: OperationSpec, schema: UpstreamSchema | undefined): OperationFit {
  let fits = schema ? fitsBySchema.get(schema) : literalFits;
  if (!fits) fitsBySchema.set(schema!, (fits = new Map()));
  let fit = fits.get(name);
  if (!fit) fits.set(name, (fit = schema ? fitOperation(schema, spec) : literalFit(spec)));
  return fit;
}

/**
 * The spec and fit a built-in call runs with: `campaigns` of one business account through the
 * upstream's index on it when it has one that fits, else the operation's own spec.
 */
export function chooseSpec(
  call: Pick<OperationCall, 'name' | 'variables'>,
  spec: OperationSpec,
  schema: UpstreamSchema | undefined,
): { spec: OperationSpec; fit: OperationFit } {
  const index =
    schema && spec === OPERATION_SPECS.campaigns && typeof call.variables.businessAccountId === 'string'
      ? campaignIndexField(schema)
      : undefined;
  if (index) {
    const indexSpec = campaignsByIndexSpec(index);
    const fit = fitFor(`campaigns@${index}`, indexSpec, schema);
    if (fit.problems.length === 0) return { spec: indexSpec, fit };
  }
  return { spec, fit: fitFor(call.name, spec, schema) };
}

/** The request for a built-in operation, or a ProxyError when the upstream cannot serve this call. */
export function buildRequest(call: OperationCall, spec: OperationSpec, fit: OperationFit): DocumentRequest {
  if (fit.problems.length) {
    throw new ProxyError(
      502,
      'upstream_schema_mismatch',
      `The Marketing API cannot serve ${call.name}: ${fit.problems.join('; ')}.`,
    );
  }
  const declarations: string[] = [];
  const args: string[] = [];
  const variables: Record<string, unknown> = {};
  for (const argument of spec.arguments) {
    const given = call.variables[argument.variable];
    if (given === undefined || typeof given === 'boolean') continue;
    const argumentFit = fit.arguments.get(argument.variable)!;
    if (!argumentFit.ok && argument.kind === 'value' && argument.droppable) continue;
    if (!argumentFit.ok) {
      throw new ProxyError(
        400,
        'unsupported_variable',
        `The Marketing API behind this proxy cannot honour "${argument.variable}": ${argumentFit.reason}.`,
      );
    }
    if (argumentFit.declaration) declarations.push(argumentFit.declaration);
    args.push(argumentFit.argument(given));
    if (argumentFit.variable) {
      const [name, value] = argumentFit.variable(given);
      variables[name] = value;
    }
  }
  const declared = declarations.length ? `(${declarations.join(', ')})` : '';
  const argued = args.length ? `(${args.join(', ')})` : '';
  const root = spec.alias ? `${spec.alias}: ${spec.field}` : spec.field;
  const query = `${spec.kind} ${call.name}${declared} { ${root}${argued} ${fit.selection} }`;
  return { query, variables };
}

/** Where documents get the upstream schema from: the proxy's UpstreamSchemaCache, or a schema at hand. */
export interface SchemaSource {
  get(): Promise<UpstreamSchema | undefined>;
  /** After a refused document: read it again if allowed; `changed` when documents may now differ. */
  refresh(): Promise<{ changed: boolean }>;
}

export const fixedSchema = (schema: UpstreamSchema | undefined): SchemaSource => ({
  get: async () => schema,
  refresh: async () => ({ changed: false }),
});

/** The proxy's upstream documents: one per proxy, over its schema source (none when introspection is off). */
export class UpstreamDocuments {
  constructor(private readonly schemas: SchemaSource | undefined) {}

  /** The upstream field a built-in call reads (`campaigns`, or an index's query field), for cursors to name their list. */
  async fieldFor(call: OperationCall): Promise<string> {
    const spec = builtInSpec(call);
    // Only one business account's campaigns may be read through another field; nothing else asks for the schema here.
    if (!spec || spec !== OPERATION_SPECS.campaigns || typeof call.variables.businessAccountId !== 'string')
      return call.name;
    return chooseSpec(call, spec, await this.schemas?.get()).spec.field;
  }

  /** Whether the upstream has a type of this name; true when its schema is unknown (a document naming it then works). */
  async hasType(name: string): Promise<boolean> {
    const schema = await this.schemas?.get();
    return !schema || schema.types.has(name);
  }

  /** The document and variables for one upstream request of `call`. */
  async requestFor(call: OperationCall): Promise<DocumentRequest> {
    const spec = builtInSpec(call);
    if (!spec) return { query: documentFor(call.operation, call.variables), variables: call.variables };
    const chosen = chooseSpec(call, spec, await this.schemas?.get());
    return buildRequest(call, chosen.spec, chosen.fit);
  }

  /**
   * Sends `call` through `send`. When the upstream refuses the document as invalid, reads the schema
   * again and, if it changed, tries once more with the new document. Built-in answers are normalized
   * afterwards (normalize.ts), which also gives fields left out of the document their empty value.
   */
  async attempt<T>(call: OperationCall, send: (request: DocumentRequest) => Promise<T>): Promise<T> {
    try {
      // Inside the try: a schema that says the call cannot work is read again too (the API may have been fixed).
      return await send(await this.requestFor(call));
    } catch (error) {
      if (!this.schemas || !isSchemaMismatch(error) || !(await this.schemas.refresh()).changed) throw error;
      return send(await this.requestFor(call));
    }
  }
}
