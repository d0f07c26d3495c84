/**
 * The appsync flavour over HTTP: POST /graphql answered the way AWS AppSync answers (see errors.ts
 * for the shapes and their sources), plus the same GET /images/<id>.svg as the default flavour.
 *
 * Status codes: 401 UnauthorizedException for a missing or wrong key (checked first); 429
 * LimitExceededError while throttled (test hook); 400 MalformedHttpRequestException for an empty
 * body or one that holds no GraphQL request; 413 over 100 kB; 405 for anything but POST. Everything
 * else is 200: syntax, validation and variable errors with `data: null`, resolver errors with partial data.
 */
import { Hono, type Context } from 'hono';
import { execute, getOperationAST, GraphQLError, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { sameSecret } from '../../crypto.ts';
import { guardGraphqlRoute, MAX_GRAPHQL_BODY_BYTES } from '../graphql-route.ts';
import { serveImage } from '../images.ts';
import {
  executionError,
  NoIntrospectionRule,
  requestError,
  validationErrors,
  variableErrorMessage,
  type GraphQLJavaError,
} from './errors.ts';
import { AppSyncState, createAppSyncSchema } from './resolvers.ts';

export interface AppSyncAppOptions {
  /** False answers `__schema` / `__type` as undefined fields, as AppSync does with introspection disabled. */
  introspection: boolean;
  /** True serves `campaignsByBusinessAccountId`, the query field of an index on `Campaign.businessAccountId`. */
  campaignIndex?: boolean;
}

function refusal(c: Context, status: 400 | 401 | 405 | 413 | 429, errorType: string, message: string) {
  c.header('x-amzn-ErrorType', errorType);
  return c.json({ errors: [{ errorType, message }] }, status);
}

function noData(c: Context, errors: GraphQLJavaError[]) {
  return c.json({ data: null, errors }, 200);
}

/** The request's `{ query, variables, operationName }`, or undefined when the body holds none. */
function readRequest(
  text: string,
): { query: string; variables?: Record<string, unknown>; operationName?: string } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return {
    query,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: operationName ?? undefined,
  };
}

async function handle(
  c: Context,
  schema: GraphQLSchema,
  state: AppSyncState,
  apiKey: string,
  options: AppSyncAppOptions,
) {
  const givenKey = c.req.header('x-api-key');
  if (!givenKey) return refusal(c, 401, 'UnauthorizedException', 'Valid authorization header not provided.');
  if (!sameSecret(givenKey, apiKey))
    return refusal(c, 401, 'UnauthorizedException', 'You are not authorized to make this call.');
  state.countRequest();
  if (state.takeThrottle()) return refusal(c, 429, 'LimitExceededError', 'Rate limit exceeded');
  if (c.req.method !== 'POST') {
    c.header('Allow', 'POST');
    return refusal(c, 405, 'MalformedHttpRequestException', 'Send GraphQL requests as POST with a JSON body.');
  }
  const text = await c.req.text();
  if (text.trim() === '') return refusal(c, 400, 'MalformedHttpRequestException', 'Request body is empty.');
  const request = readRequest(text);
  if (!request) return refusal(c, 400, 'MalformedHttpRequestException', 'Unable to parse GraphQL query.');

  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    const syntax = error as GraphQLError;
    return noData(c, [requestError(syntax, `Invalid Syntax : ${syntax.message.replace(/^Syntax Error: /, '')}`)]);
  }
  const invalid = validationErrors(schema, document, options.introspection ? [] : [NoIntrospectionRule]);
  if (invalid.length > 0) return noData(c, invalid);
  const operation = getOperationAST(document, request.operationName);
  if (!operation) {
    const message = request.operationName
      ? `Unknown operation named '${request.operationName}'.`
      : 'Must provide operation name if query contains multiple operations.';
    return noData(c, [{ path: null, locations: null, message }]);
  }
  state.countOperation(operation);

  const result = await execute({
    schema,
    document,
    operationName: request.operationName,
    variableValues: request.variables,
    contextValue: { state },
  });
  // No data at all: the variables did not fit, so nothing ran.
  if (result.data === undefined)
    return noData(
      c,
      (result.errors ?? []).map((error) => requestError(error, variableErrorMessage(error.message))),
    );
  const errors = result.errors?.map(executionError);
  return c.json({ data: result.data, ...(errors ? { errors } : {}) }, 200);
}

export function createAppSyncApp(state: AppSyncState, apiKey: string, options: AppSyncAppOptions): Hono {
  const schema = createAppSyncSchema(options.campaignIndex);
  const app = new Hono();
  guardGraphqlRoute(app, (c) =>
    refusal(c, 413, 'MalformedHttpRequestException', `Request body is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes.`),
  );
  app.all('/graphql', (c) => handle(c, schema, state, apiKey, options));
  app.get('/images/:file', (c) =>
    serveImage(c.req.param('file'), c.req.query('w'), (id) => {
      const campaign = state.campaigns.find((candidate) => candidate.id === id);
      if (campaign)
        return {
          kind: 'campaign',
          title: campaign.content?.title ?? null,
          subtitle: campaign.content?.subtitle ?? null,
          colors: campaign.content?.colors,
        };
      const account = state.businessAccounts.find((candidate) => candidate.id === id);
      return account && { kind: 'logo', ...account };
    }),
  );
  app.get('/', (c) =>
    c.text(
      'Loyalty Marketing sandbox (appsync flavour). POST GraphQL requests to /graphql with an x-api-key header.\n',
    ),
  );
  return app;
}
