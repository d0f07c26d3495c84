/**
 * A Marketing API built with graphql-js over real HTTP whose schema the test chooses and may swap while
 * it runs (a deploy behind the same URL), whose introspection can be switched off, and which records
 * every request. It answers the way an AppSync endpoint does: 401 UnauthorizedException for a wrong
 * key, validation failures on HTTP 200 as `Validation error of type …` with `errorType`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { buildSchema, execute, parse, validate, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { closeServer, listen } from './proxy-server.ts';

/** Amplify-shaped: ID-typed arguments, Model*Input filters, no filter on businessAccounts, fewer account fields. */
export const AMPLIFY_SDL = /* GraphQL */ `
  type Campaign { id: ID! businessAccountId: ID! content: CampaignContent! }
  type CampaignContent { title: String! subtitle: String description: String featuredImage(width: Int): Image objective: CampaignObjective }
  union CampaignObjective = CouponObjective | VisitObjective
  type CouponObjective { price: Float }
  type VisitObjective { visits: Int }
  type Image { url: String! }
  type ModelCampaignConnection { items: [Campaign]! nextToken: String }
  input ModelIDInput { ne: ID eq: ID beginsWith: ID }
  input ModelStringInput { ne: String eq: String beginsWith: String }
  input ModelCampaignFilterInput { id: ModelIDInput businessAccountId: ModelIDInput and: [ModelCampaignFilterInput] }
  type Address { streetAddress: String postalCode: String city: String }
  type BusinessAccount { id: ID! name: String! websiteUrl: String address: Address description: String category: String logo: Image pending: Boolean }
  type ModelBusinessAccountConnection { items: [BusinessAccount]! nextToken: String }
  type Coupon { code: String! }
  type RequestCouponPayload { coupon: Coupon }
  type Query {
    campaign(id: ID!): Campaign
    campaigns(filter: ModelCampaignFilterInput, limit: Int, nextToken: String): ModelCampaignConnection
    businessAccounts(limit: Int, nextToken: String): ModelBusinessAccountConnection
  }
  type Mutation { requestCoupon(campaignId: ID!): RequestCouponPayload }
`;

/** The same service after a deploy: string ids, a string filter, a filter on accounts, no coupon objectives. */
export const REDEPLOYED_SDL = /* GraphQL */ `
  type Campaign { id: String! businessAccountId: String content: CampaignContent! }
  type CampaignContent { title: String! featuredImage: Image objective: CampaignObjective }
  union CampaignObjective = VisitObjective | PointsObjective
  type VisitObjective { visits: Int }
  type PointsObjective { points: Int }
  type Image { url: String! }
  type CampaignPage { items: [Campaign!]! nextToken: String }
  input TextFilter { eq: String }
  input CampaignsFilter { businessAccountId: TextFilter }
  input AccountsFilter { category: TextFilter }
  type BusinessAccount { id: String! name: String! category: String pending: Boolean }
  type AccountPage { items: [BusinessAccount!]! nextToken: String }
  type Coupon { code: String! }
  type RequestCouponPayload { coupon: Coupon! }
  type Query {
    campaign(id: String!): Campaign
    campaigns(filter: CampaignsFilter, limit: Int, nextToken: String): CampaignPage!
    businessAccounts(filter: AccountsFilter, limit: Int, nextToken: String): AccountPage!
  }
  type Mutation { requestCoupon(campaignId: String!): RequestCouponPayload! }
`;

export const SCHEMA_UPSTREAM_KEY = 'da2-schema-upstream-key-7c31';

/** Records whatever ids come in, so a test can see exactly what the upstream received. */
function campaignFor(id: string, businessAccountId = 'biz-1') {
  return {
    id,
    businessAccountId,
    content: {
      title: `Campaign ${id}`,
      subtitle: 'Sub',
      description: null,
      featuredImage: (args: { width?: number }) => ({
        url: `https://images.example/${encodeURIComponent(id)}?w=${args.width ?? 'any'}`,
      }),
      // A coupon objective where the schema has that type, else a visit objective.
      objective: (_args: unknown, _context: unknown, info: GraphQLResolveInfo) =>
        info.schema.getType('CouponObjective')
          ? { __typename: 'CouponObjective', price: 4.5 }
          : { __typename: 'VisitObjective', visits: 3 },
    },
  };
}

const rootValue = {
  campaign: ({ id }: { id: string }) => campaignFor(id),
  campaigns: (args: { filter?: { businessAccountId?: { eq?: string } }; limit?: number }) => {
    const owner = args.filter?.businessAccountId?.eq;
    const items = ['camp-1', 'camp-2', 'camp-3']
      .map((id) => campaignFor(id, owner ?? 'biz-1'))
      .slice(0, args.limit ?? 10);
    return { items, nextToken: null };
  },
  businessAccounts: (args: { filter?: { category?: { eq?: string } }; limit?: number }) => {
    const category = args.filter?.category?.eq ?? 'Cafe';
    const items = [
      { id: 'biz-1', name: 'Harbor Coffee', category, pending: false, logo: { url: 'https://images.example/biz-1' } },
    ];
    return { items: items.slice(0, args.limit ?? 10), nextToken: null };
  },
  requestCoupon: ({ campaignId }: { campaignId: string }) => ({ coupon: { code: `CODE:${campaignId}` } }),
};

export interface SchemaUpstream {
  url: string;
  /** Every request's body, in order. */
  requests: { query: string; variables?: Record<string, unknown> }[];
  introspections(): number;
  setSchema(sdl: string): void;
  setIntrospection(allowed: boolean): void;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<{ query: string; variables?: Record<string, unknown> }> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as { query: string; variables?: Record<string, unknown> };
}

export async function startSchemaUpstream(
  sdl = AMPLIFY_SDL,
  options: { introspection?: boolean } = {},
): Promise<SchemaUpstream> {
  let schema: GraphQLSchema = buildSchema(sdl);
  let introspection = options.introspection ?? true;
  const requests: SchemaUpstream['requests'] = [];
  const server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers['x-api-key'] !== SCHEMA_UPSTREAM_KEY) {
      reply(401, {
        errors: [{ errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' }],
      });
      return;
    }
    const body = await readJson(req);
    requests.push(body);
    const document = parse(body.query);
    const invalid = (message: string) =>
      reply(200, { data: null, errors: [{ message, errorType: 'ValidationError' }] });
    if (!introspection && body.query.includes('__schema')) {
      invalid("Validation error of type FieldUndefined: Field '__schema' in type 'Query' is undefined @ '__schema'");
      return;
    }
    const errors = validate(schema, document);
    if (errors.length) {
      invalid(`Validation error of type WrongType: ${errors[0]!.message}`);
      return;
    }
    const result = await execute({ schema, document, rootValue, variableValues: body.variables });
    reply(200, result);
  });
  const origin = await listen(server);
  return {
    url: `${origin}/graphql`,
    requests,
    introspections: () => requests.filter((request) => request.query.includes('__schema')).length,
    setSchema: (next) => void (schema = buildSchema(next)),
    setIntrospection: (allowed) => void (introspection = allowed),
    close: () => closeServer(server),
  };
}
