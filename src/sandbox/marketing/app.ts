/**
 * The Marketing sandbox over HTTP: POST /graphql (JSON `{ query, variables, operationName }`, header
 * `x-api-key`), executed for real with graphql-js, and GET /images/<id>.svg?w=<width>.
 *
 * Status codes: 401 for a missing or wrong key (checked first, on every method), 405 for anything
 * but POST, 413 for bodies over 100 kB, 400 for a body that is not JSON, a document that does not
 * parse or validate, or variables that do not fit; 200 otherwise, with resolver errors in `errors`.
 */
import { Hono, type Context } from 'hono';
import {
  execute,
  getOperationAST,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { sameSecret } from '../crypto.ts';
import { guardGraphqlRoute, MAX_GRAPHQL_BODY_BYTES } from './graphql-route.ts';
import { serveImage } from './images.ts';
import { createMarketingSchema, MarketingState } from './resolvers.ts';

type ErrorCode =
  | 'UNAUTHORIZED'
  | 'THROTTLED'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'BAD_REQUEST'
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED';

function errorBody(message: string, code: ErrorCode) {
  return { errors: [{ message, extensions: { code } }] };
}

/** Hides internal failures (a bug, not the caller's fault) behind a generic message. */
function formatError(error: GraphQLError): GraphQLFormattedError {
  if (error.originalError && !(error.originalError instanceof GraphQLError)) {
    console.error('[sandbox marketing] resolver failed:', error.originalError);
    return { message: 'Internal server error', path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return error.toJSON();
}

interface GraphQLRequestBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

function readRequestBody(value: unknown): GraphQLRequestBody | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The body must be a JSON object';
  const body = value as Record<string, unknown>;
  if (typeof body.query !== 'string' || body.query.trim() === '') return 'The body must have a "query" string';
  if (body.variables != null && (typeof body.variables !== 'object' || Array.isArray(body.variables)))
    return '"variables" must be an object';
  if (body.operationName != null && typeof body.operationName !== 'string') return '"operationName" must be a string';
  return body as unknown as GraphQLRequestBody;
}

async function handleGraphQL(c: Context, schema: GraphQLSchema, state: MarketingState, apiKey: string) {
  const givenKey = c.req.header('x-api-key');
  if (!givenKey) return c.json(errorBody('Missing x-api-key header', 'UNAUTHORIZED'), 401);
  if (!sameSecret(givenKey, apiKey)) return c.json(errorBody('Invalid API key', 'UNAUTHORIZED'), 401);
  state.countRequest();
  if (state.takeThrottle()) return c.json(errorBody('Rate exceeded; try again later', 'THROTTLED'), 429);
  if (c.req.method !== 'POST') {
    c.header('Allow', 'POST');
    return c.json(errorBody('Send GraphQL requests as POST with a JSON body', 'METHOD_NOT_ALLOWED'), 405);
  }
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return c.json(errorBody('The body must be JSON: { "query": "...", "variables": {...} }', 'BAD_REQUEST'), 400);
  }
  const body = readRequestBody(json);
  if (typeof body === 'string') return c.json(errorBody(body, 'BAD_REQUEST'), 400);

  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch (error) {
    const parseError = error as GraphQLError;
    return c.json({ errors: [{ ...parseError.toJSON(), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] }, 400);
  }
  const validationErrors = validate(schema, document);
  if (validationErrors.length > 0) {
    return c.json(
      { errors: validationErrors.map((e) => ({ ...e.toJSON(), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) },
      400,
    );
  }
  const operation = getOperationAST(document, body.operationName ?? undefined);
  if (!operation) {
    const message = body.operationName
      ? `No operation named ${JSON.stringify(body.operationName)}`
      : 'The document has several operations; send an operationName';
    return c.json(errorBody(message, 'BAD_REQUEST'), 400);
  }
  state.countOperation(operation);

  const result = await execute({
    schema,
    document,
    operationName: body.operationName ?? undefined,
    variableValues: body.variables ?? undefined,
    contextValue: { state },
  });
  const errors = result.errors?.map(formatError);
  // No data at all means the request could not start (e.g. variables of the wrong type): the caller's fault.
  const status = result.data === undefined ? 400 : 200;
  return c.json({ ...(errors ? { errors } : {}), ...(result.data !== undefined ? { data: result.data } : {}) }, status);
}

export function createMarketingApp(state: MarketingState, apiKey: string): Hono {
  const schema = createMarketingSchema();
  const app = new Hono();
  guardGraphqlRoute(app, (c) =>
    c.json(errorBody(`The body is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes`, 'PAYLOAD_TOO_LARGE'), 413),
  );
  app.all('/graphql', (c) => handleGraphQL(c, schema, state, apiKey));

  app.get('/images/:file', (c) =>
    serveImage(c.req.param('file'), c.req.query('w'), (id) => {
      const campaign = state.campaigns.find((candidate) => candidate.id === id);
      if (campaign) return { kind: 'campaign', ...campaign };
      const account = state.businessAccounts.find((candidate) => candidate.id === id);
      return account && { kind: 'logo', ...account };
    }),
  );

  app.get('/', (c) =>
    c.text('Loyalty Marketing sandbox. POST GraphQL requests to /graphql with an x-api-key header.\n'),
  );
  return app;
}
