/**
 * Fitting a built-in operation to the upstream's schema: which arguments the upstream field has and
 * how it types them (`ID!` or `String!`, `ModelCampaignFilterInput` with a `ModelIDInput` per field),
 * which of the selected fields and union members exist. The result says what will work, what is
 * adapted and what cannot work; the proxy builds its documents from it and `loyalty-proxy doctor`
 * prints it. Without a schema (introspection off or failing) the documents carry values as literals,
 * so they name no upstream type at all.
 */
import type { ArgumentSpec, FieldSpec, OperationSpec } from './document-specs.ts';
import { namedType, printTypeRef, type TypeRef, type UpstreamField, type UpstreamSchema } from './schema.ts';

/**
 * How one browser variable reaches the upstream: as a typed variable (`declaration`, and `variable`
 * gives its name and value) or, without a schema, written into the argument as a literal.
 */
export type ArgumentFit =
  | {
      ok: true;
      declaration?: string;
      argument: (given: string | number) => string;
      variable?: (given: string | number) => [string, unknown];
    }
  | { ok: false; reason: string };

export interface OperationFit {
  /** Set when the operation cannot work against this schema. */
  problems: string[];
  /** What the documents do differently from the spec's shapes, in plain words. */
  adaptations: string[];
  arguments: ReadonlyMap<string, ArgumentFit>;
  /** The selection set after the root field, e.g. `{ items { id … } nextToken }`. */
  selection: string;
}

const STRING_SCALARS = new Set(['String', 'ID']);

/** A GraphQL string literal holding `value` exactly: only printable ASCII as it is, everything else escaped. */
export function graphqlString(value: string): string {
  let literal = '"';
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code === 0x22) literal += '\\"';
    else if (code === 0x5c) literal += '\\\\';
    else if (code >= 0x20 && code < 0x7f) literal += value[index];
    else literal += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${literal}"`;
}

function literalOf(value: string | number): string {
  return typeof value === 'number' ? String(value) : graphqlString(value);
}

/** The spec's selection as it is, for an upstream whose schema is unknown. */
function printSpec(fields: readonly FieldSpec[], fragments: FieldSpec['fragments'] = {}): string {
  const parts = fields.map((spec) => {
    const args = spec.args
      ? `(${Object.entries(spec.args)
          .map(([name, value]) => `${name}: ${value}`)
          .join(', ')})`
      : '';
    const sub = spec.fields ? ` ${printSpec(spec.fields, spec.fragments)}` : '';
    return `${spec.alias ? `${spec.alias}: ` : ''}${spec.name}${args}${sub}`;
  });
  const members = Object.entries(fragments).map(([type, sub]) => `... on ${type} ${printSpec(sub)}`);
  return `{ ${[...parts, ...members].join(' ')} }`;
}

/** Without a schema: every argument written as a literal, the spec's selection unchanged. */
export function literalFit(spec: OperationSpec): OperationFit {
  const fits = new Map<string, ArgumentFit>();
  for (const argument of spec.arguments) {
    const argumentOf =
      argument.kind === 'filter'
        ? (given: string | number) => `${argument.name}: { ${argument.variable}: { eq: ${literalOf(given)} } }`
        : (given: string | number) => `${argument.name}: ${literalOf(given)}`;
    fits.set(argument.variable, { ok: true, argument: argumentOf });
  }
  return { problems: [], adaptations: [], arguments: fits, selection: printSpec(spec.fields) };
}

/** Argument types the spec's shapes already imply; others are worth telling. */
const PLAIN_TYPES = new Set(['Int', 'String']);

/** `filter: ModelCampaignFilterInput { businessAccountId: ModelIDInput { eq: ID } }`, for the doctor. */
function filterShape(schema: UpstreamSchema, filterType: TypeRef, field: string): string {
  const fieldType = schema.types.get(namedType(filterType))!.inputFields.get(field)!;
  const eq = schema.types.get(namedType(fieldType))!.inputFields.get('eq')!;
  return `filter: ${printTypeRef(filterType)} { ${field}: ${printTypeRef(fieldType)} { eq: ${printTypeRef(eq)} } }`;
}

const isComposite = (kind: string | undefined) => kind === 'OBJECT' || kind === 'INTERFACE' || kind === 'UNION';

class Fitter {
  readonly problems: string[] = [];
  readonly adaptations: string[] = [];

  constructor(private readonly schema: UpstreamSchema) {}

  argument(field: UpstreamField, where: string, spec: ArgumentSpec): ArgumentFit {
    const type = field.args.get(spec.name);
    if (!type) return { ok: false, reason: `${where} takes no ${spec.name}` };
    const typeName = namedType(type);
    if (spec.kind === 'value') {
      const fits = spec.scalar === 'int' ? typeName === 'Int' : STRING_SCALARS.has(typeName);
      if (!fits || type.kind === 'LIST' || type.ofType?.kind === 'LIST') {
        return {
          ok: false,
          reason: `${where}(${spec.name}) is ${printTypeRef(type)}, not a ${spec.scalar === 'int' ? 'number' : 'string'}`,
        };
      }
      return {
        ok: true,
        declaration: `$${spec.variable}: ${printTypeRef(type)}`,
        argument: () => `${spec.name}: $${spec.variable}`,
        variable: (given) => [spec.variable, given],
      };
    }
    const filter = this.schema.types.get(typeName);
    const fieldType = filter?.inputFields.get(spec.variable);
    const operators = fieldType && this.schema.types.get(namedType(fieldType));
    const eq = operators?.inputFields.get('eq');
    if (!filter || filter.kind !== 'INPUT_OBJECT' || !fieldType || !eq || !STRING_SCALARS.has(namedType(eq))) {
      return {
        ok: false,
        reason: `${where}(${spec.name}: ${printTypeRef(type)}) has no ${spec.variable} { eq } filter`,
      };
    }
    return {
      ok: true,
      declaration: `$${spec.name}: ${printTypeRef(type)}`,
      argument: () => `${spec.name}: $${spec.name}`,
      variable: (given) => [spec.name, { [spec.variable]: { eq: given } }],
    };
  }

  /** `{ … }` for the fields of `typeName` the upstream has, or undefined when a required one is missing. */
  selection(typeName: string, specs: readonly FieldSpec[], fragments: FieldSpec['fragments']): string | undefined {
    const type = this.schema.types.get(typeName);
    const parts: string[] = [];
    for (const spec of specs) {
      const part = spec.name === '__typename' ? '__typename' : this.field(typeName, type?.fields.get(spec.name), spec);
      if (part !== undefined) parts.push(part);
      else if (spec.required) return undefined;
    }
    for (const [member, sub] of Object.entries(fragments ?? {})) {
      const memberType = this.schema.types.get(member);
      if (member !== typeName && !type?.possibleTypes.includes(member)) {
        this.adaptations.push(
          `${typeName} has no member ${member}: its fields (${sub.map((spec) => spec.name).join(', ')}) are left out`,
        );
        continue;
      }
      const fragment = memberType && this.selection(member, sub, undefined);
      if (fragment) parts.push(`... on ${member} ${fragment}`);
    }
    return parts.length ? `{ ${parts.join(' ')} }` : undefined;
  }

  private field(parent: string, field: UpstreamField | undefined, spec: FieldSpec): string | undefined {
    const where = `${parent}.${spec.name}`;
    const missing = (why: string) => {
      if (spec.required) this.problems.push(`${where} ${why}`);
      else
        this.adaptations.push(
          `${where} ${why}: left out${spec.whenAbsent ? `, so ${spec.whenAbsent}` : ', empty in answers'}`,
        );
      return undefined;
    };
    if (!field) return missing('does not exist');
    const args: string[] = [];
    for (const [name, value] of Object.entries(spec.args ?? {})) {
      if (field.args.has(name)) args.push(`${name}: ${value}`);
      else if (!this.adaptations.includes(`${where} takes no ${name}: asked for without it`))
        this.adaptations.push(`${where} takes no ${name}: asked for without it`);
    }
    const unknownRequired = field.requiredArgs.filter((name) => !(name in (spec.args ?? {})));
    if (unknownRequired.length)
      return missing(`needs arguments the proxy does not have (${unknownRequired.join(', ')})`);
    const target = namedType(field.type);
    const targetKind = this.schema.types.get(target)?.kind;
    let sub = '';
    if (spec.fields) {
      if (!isComposite(targetKind)) return missing(`is ${printTypeRef(field.type)}, not an object`);
      const selected = this.selection(target, spec.fields, spec.fragments);
      if (!selected) return missing('lacks fields it needs');
      sub = ` ${selected}`;
    } else if (isComposite(targetKind)) {
      return missing(`is an object (${target}), not a value`);
    }
    return `${spec.alias ? `${spec.alias}: ` : ''}${spec.name}${args.length ? `(${args.join(', ')})` : ''}${sub}`;
  }
}

/** Fits one built-in operation to the upstream's schema. */
export function fitOperation(schema: UpstreamSchema, spec: OperationSpec): OperationFit {
  const fitter = new Fitter(schema);
  const rootName = spec.kind === 'query' ? schema.queryType : schema.mutationType;
  const field = rootName ? schema.types.get(rootName)?.fields.get(spec.field) : undefined;
  const fits = new Map<string, ArgumentFit>();
  if (!rootName || !field) {
    return {
      problems: [`${rootName ?? spec.kind}.${spec.field} does not exist`],
      adaptations: [],
      arguments: fits,
      selection: '',
    };
  }
  const where = `${rootName}.${spec.field}`;
  for (const argument of spec.arguments) {
    const fit = fitter.argument(field, spec.field, argument);
    fits.set(argument.variable, fit);
    const upstreamType = field.args.get(argument.name);
    if (fit.ok && argument.kind === 'value' && upstreamType && !PLAIN_TYPES.has(printTypeRef(upstreamType))) {
      fitter.adaptations.push(
        `${spec.field}(${argument.name}) takes ${printTypeRef(upstreamType)}: documents declare $${argument.variable}: ${printTypeRef(upstreamType)}`,
      );
    } else if (fit.ok && argument.kind === 'filter' && upstreamType) {
      fitter.adaptations.push(
        `${spec.field} filters by ${argument.variable} as ${filterShape(schema, upstreamType, argument.variable)}`,
      );
    } else if (!fit.ok && argument.kind === 'value' && argument.droppable) {
      fitter.adaptations.push(`${fit.reason}: it is not sent, and pages are as long as the upstream makes them`);
    } else if (!fit.ok) {
      fitter.adaptations.push(`${fit.reason}: a call with ${argument.variable} is refused (400 unsupported_variable)`);
    }
  }
  const supplied = new Set(spec.arguments.map((argument) => argument.name));
  const unknownRequired = field.requiredArgs.filter((name) => !supplied.has(name));
  if (unknownRequired.length)
    fitter.problems.push(`${where} needs arguments the proxy does not have (${unknownRequired.join(', ')})`);
  const selection = fitter.selection(namedType(field.type), spec.fields, undefined);
  if (!selection && fitter.problems.length === 0) fitter.problems.push(`${where} lacks fields it needs`);
  return {
    problems: fitter.problems,
    adaptations: fitter.adaptations,
    arguments: fits,
    selection: selection ?? '',
  };
}

/**
 * The query field of an index on the campaigns' business account, when the upstream has one: a field
 * of the query type, other than `campaigns`, that returns the same connection as `campaigns` and whose
 * one required argument is `businessAccountId` (a string or ID, not a list), and that takes `limit` and
 * `nextToken` as `campaigns` does. Amplify names it after `@index(queryField: …)`, so it is found by shape.
 */
export function campaignIndexField(schema: UpstreamSchema): string | undefined {
  const query = schema.queryType ? schema.types.get(schema.queryType) : undefined;
  const scan = query?.fields.get('campaigns');
  if (!query || !scan) return undefined;
  const connection = namedType(scan.type);
  const candidates = [...query.fields].filter(([name, field]) => {
    const account = field.args.get('businessAccountId');
    return (
      name !== 'campaigns' &&
      namedType(field.type) === connection &&
      field.requiredArgs.length === 1 &&
      field.requiredArgs[0] === 'businessAccountId' &&
      account !== undefined &&
      account.kind === 'NON_NULL' &&
      account.ofType?.kind !== 'LIST' &&
      STRING_SCALARS.has(namedType(account)) &&
      field.args.has('limit') &&
      field.args.has('nextToken')
    );
  });
  return candidates.map(([name]) => name).sort()[0];
}
