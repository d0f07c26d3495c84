/**
 * Errors in the shape AppSync (graphql-java underneath) gives them, never `extensions.code`:
 * - resolver failures: `{ path, data: null, errorType, errorInfo, locations, message }` beside partial data;
 * - validation: `Validation error of type FieldUndefined: Field 'x' in type 'Query' is undefined @ 'x'`,
 *   with `path: null` and top-level `data: null`, on HTTP 200;
 * - requests refused before GraphQL (key, throttling, body): `{ errors: [{ errorType, message }] }`.
 * Sources: graphql/graphql-over-http#81 (AppSync's own description of its HTTP behaviour),
 * aws/aws-appsync-community#209 (Lambda:Unhandled), aws-amplify/amplify-cli#3411 (page tokens).
 */
import {
  GraphQLError,
  specifiedRules,
  validate,
  visit,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';

/** A resolver failure with AppSync's errorType (e.g. 'Lambda:Unhandled', 'DynamoDB:DynamoDbException'). */
export class AppSyncResolverError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
    readonly errorInfo: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export interface GraphQLJavaError {
  path: Array<string | number> | null;
  data?: null;
  errorType?: string;
  errorInfo?: Record<string, unknown> | null;
  locations: Array<{ line: number; column: number; sourceName: null }> | null;
  message: string;
}

function locationsOf(error: GraphQLError): GraphQLJavaError['locations'] {
  return error.locations?.map(({ line, column }) => ({ line, column, sourceName: null })) ?? null;
}

/** An error raised while executing (a resolver failed): errorType and the path of the field that is null. */
export function executionError(error: GraphQLError): GraphQLJavaError {
  const original = error.originalError;
  const known = original instanceof AppSyncResolverError;
  if (original && !known && !(original instanceof GraphQLError))
    console.error('[sandbox appsync] resolver failed:', original);
  return {
    path: error.path ? [...error.path] : null,
    data: null,
    errorType: known ? original.errorType : 'Lambda:Unhandled',
    errorInfo: known ? original.errorInfo : null,
    locations: locationsOf(error),
    message: known ? original.message : 'An internal failure occurred while resolving this field.',
  };
}

/** An error of the request itself (syntax, variables, operation name): no path, no errorType. */
export function requestError(error: GraphQLError, message = error.message): GraphQLJavaError {
  return { path: null, locations: locationsOf(error), message };
}

/** graphql-java's wording for graphql-js's variable coercion errors. */
export function variableErrorMessage(message: string): string {
  const missing =
    /^Variable "\$(\w+)" of (?:required|non-null) type "([^"]+)" (?:was not provided|must not be null)\.$/.exec(
      message,
    );
  if (missing) return `Variable '${missing[1]}' has coerced Null value for NonNull type '${missing[2]}'`;
  const invalid = /^Variable "\$(\w+)" got invalid value (.*)$/.exec(message);
  if (invalid) return `Variable '${invalid[1]}' has an invalid value: ${invalid[2]}`;
  return message;
}

/** graphql-js rule → graphql-java ValidationErrorType, and graphql-java's wording where it differs. */
const RULE_TYPES: Record<string, string> = {
  ExecutableDefinitionsRule: 'NonExecutableDefinition',
  UniqueOperationNamesRule: 'DuplicateOperationName',
  LoneAnonymousOperationRule: 'LoneAnonymousOperationViolation',
  KnownTypeNamesRule: 'UnknownType',
  FragmentsOnCompositeTypesRule: 'InlineFragmentTypeConditionInvalid',
  VariablesAreInputTypesRule: 'NonInputTypeOnVariable',
  ScalarLeafsRule: 'SubSelectionRequired',
  FieldsOnCorrectTypeRule: 'FieldUndefined',
  UniqueFragmentNamesRule: 'DuplicateFragmentName',
  KnownFragmentNamesRule: 'UndefinedFragment',
  NoUnusedFragmentsRule: 'UnusedFragment',
  PossibleFragmentSpreadsRule: 'InvalidFragmentType',
  NoFragmentCyclesRule: 'FragmentCycle',
  UniqueVariableNamesRule: 'DuplicateVariableName',
  NoUndefinedVariablesRule: 'UndefinedVariable',
  NoUnusedVariablesRule: 'UnusedVariable',
  KnownDirectivesRule: 'UnknownDirective',
  UniqueDirectivesPerLocationRule: 'DuplicateDirectiveName',
  KnownArgumentNamesRule: 'UnknownArgument',
  UniqueArgumentNamesRule: 'DuplicateArgumentNames',
  ValuesOfCorrectTypeRule: 'WrongType',
  ProvidedRequiredArgumentsRule: 'MissingFieldArgument',
  VariablesInAllowedPositionRule: 'VariableTypeMismatch',
  OverlappingFieldsCanBeMergedRule: 'FieldsConflict',
};

const REWORDINGS: Array<[RegExp, (...groups: string[]) => [type: string | undefined, text: string]]> = [
  [
    /^Cannot query field "(\w+)" on type "(\w+)"\./,
    (field, type) => [undefined, `Field '${field}' in type '${type}' is undefined`],
  ],
  [
    /^Field "(\w+)" of type "([^"]+)" must have a selection of subfields/,
    (field, type) => ['SubSelectionRequired', `Sub selection required for type '${type}' of field '${field}'`],
  ],
  [
    /^Field "(\w+)" must not have a selection since type "([^"]+)" has no subfields\./,
    (field, type) => ['SubSelectionNotAllowed', `Sub selection not allowed on leaf type '${type}' of field '${field}'`],
  ],
  [
    /^Field "(\w+)" argument "(\w+)" of type "([^"]+)" is required/,
    (_field, argument, type) => [undefined, `Missing field argument '${argument}' of type '${type}'`],
  ],
  [
    /^Unknown argument "(\w+)" on field "([\w.]+)"\./,
    (argument) => [undefined, `Unknown field argument '${argument}'`],
  ],
  [
    /^Variable "\$(\w+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./,
    (_name, given, expected) => [undefined, `Variable type '${given}' doesn't match expected type '${expected}'`],
  ],
  [/^Unknown type "(\w+)"\./, (type) => [undefined, `Unknown type '${type}'`]],
];

/** The field names from the operation down to `target` (graphql-java's query path). */
function queryPath(document: DocumentNode, target: ASTNode | undefined): string[] {
  if (!target) return [];
  let found: string[] = [];
  visit(document, {
    enter(node, _key, _parent, _path, ancestors) {
      if (node !== target) return undefined;
      const chain = [...(ancestors as ReadonlyArray<ASTNode | readonly ASTNode[]>), node];
      found = chain.flatMap((item) =>
        !Array.isArray(item) && (item as ASTNode).kind === 'Field'
          ? [(item as { name: { value: string } }).name.value]
          : [],
      );
      return false;
    },
  });
  return found;
}

function describe(document: DocumentNode, ruleName: string, error: GraphQLError): GraphQLJavaError {
  let type = RULE_TYPES[ruleName] ?? 'ValidationError';
  let text = error.message.replace(/\.$/, '');
  for (const [pattern, reword] of REWORDINGS) {
    const match = pattern.exec(error.message);
    if (!match) continue;
    const [retyped, reworded] = reword(...match.slice(1));
    type = retyped ?? type;
    text = reworded;
    break;
  }
  const path = queryPath(document, error.nodes?.[0]);
  return requestError(error, `Validation error of type ${type}: ${text}${path.length ? ` @ '${path.join('/')}'` : ''}`);
}

/** Validates like graphql-java: one error per broken rule use, typed by the rule it breaks. */
export function validationErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  extraRules: ValidationRule[] = [],
): GraphQLJavaError[] {
  const rules: Array<[string, ValidationRule]> = [
    ...specifiedRules.map((rule): [string, ValidationRule] => [rule.name, rule]),
    ...extraRules.map((rule): [string, ValidationRule] => ['FieldsOnCorrectTypeRule', rule]),
  ];
  return rules.flatMap(([name, rule]) =>
    validate(schema, document, [rule]).map((error) => describe(document, name, error)),
  );
}

/** A rule that hides `__schema` and `__type` as AppSync does with introspection disabled (`__typename` stays). */
export const NoIntrospectionRule: ValidationRule = (context) => ({
  Field(node) {
    const name = node.name.value;
    if (name === '__schema' || name === '__type') {
      context.reportError(
        new GraphQLError(`Cannot query field "${name}" on type "${context.getParentType()?.name ?? 'Query'}".`, {
          nodes: node,
        }),
      );
    }
  },
});
