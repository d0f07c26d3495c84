/**
 * The Marketing schema as an AWS AppSync API with Amplify-generated resolvers would serve it: the
 * spec's root field names, but Amplify's `Model*Connection` results, per-field `Model*Input`
 * filters with and/or/not, `ID` arguments, AWS scalars, and nullable fields almost everywhere.
 */
import {
  buildSchema,
  defaultFieldResolver,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';

export const APPSYNC_SDL = /* GraphQL */ `
scalar AWSDateTime
scalar AWSURL

type Campaign {
  id: ID!
  businessAccountId: ID!
  content: CampaignContent
  createdAt: AWSDateTime!
  updatedAt: AWSDateTime!
}

type CampaignContent {
  title: String
  subtitle: String
  description: String
  featuredImage(width: Int!): Image
  objective: CampaignObjective
}

union CampaignObjective = CouponObjective | VisitObjective | SurveyObjective

type CouponObjective {
  price: Float
}

type VisitObjective {
  visitsRequired: Int
  reward: String
}

type SurveyObjective {
  questionCount: Int
  surveyUrl: AWSURL
}

type Image {
  url: AWSURL
}

type Address {
  streetAddress: String
  postalCode: String
  city: String
}

type CustomProperty {
  key: String
  value: String
}

type BusinessAccount {
  id: ID!
  name: String
  websiteUrl: AWSURL
  address: Address
  description: String
  phoneNumber: String
  category: String
  logo: Image
  pending: Boolean
  customProperties: [CustomProperty]
  createdAt: AWSDateTime!
  updatedAt: AWSDateTime!
}

type Coupon {
  code: String
}

type RequestCouponPayload {
  coupon: Coupon
}

type ModelCampaignConnection {
  items: [Campaign]!
  nextToken: String
}

type ModelBusinessAccountConnection {
  items: [BusinessAccount]!
  nextToken: String
}

enum ModelSortDirection {
  ASC
  DESC
}

input ModelIDInput {
  ne: ID
  eq: ID
  le: ID
  lt: ID
  ge: ID
  gt: ID
  contains: ID
  notContains: ID
  between: [ID]
  beginsWith: ID
  attributeExists: Boolean
}

input ModelStringInput {
  ne: String
  eq: String
  le: String
  lt: String
  ge: String
  gt: String
  contains: String
  notContains: String
  between: [String]
  beginsWith: String
  attributeExists: Boolean
}

input ModelBooleanInput {
  ne: Boolean
  eq: Boolean
  attributeExists: Boolean
}

input ModelCampaignFilterInput {
  id: ModelIDInput
  businessAccountId: ModelIDInput
  createdAt: ModelStringInput
  updatedAt: ModelStringInput
  and: [ModelCampaignFilterInput]
  or: [ModelCampaignFilterInput]
  not: ModelCampaignFilterInput
}

type Query {
  campaign(id: ID!): Campaign
  campaigns(filter: ModelCampaignFilterInput, limit: Int, nextToken: String): ModelCampaignConnection
  businessAccounts(limit: Int, nextToken: String): ModelBusinessAccountConnection
}

type Mutation {
  requestCoupon(campaignId: ID!): RequestCouponPayload
}
`;

/**
 * The query field Amplify generates for `@index(name: "byBusinessAccount", queryField:
 * "campaignsByBusinessAccountId")` on `Campaign.businessAccountId`: a DynamoDB Query on a global
 * secondary index, reading only that account's rows. Added to `type Query` when the sandbox has the index.
 */
export const CAMPAIGN_INDEX_FIELD = 'campaignsByBusinessAccountId';

export const APPSYNC_CAMPAIGN_INDEX_SDL = /* GraphQL */ `
extend type Query {
  campaignsByBusinessAccountId(
    businessAccountId: ID!
    sortDirection: ModelSortDirection
    filter: ModelCampaignFilterInput
    limit: Int
    nextToken: String
  ): ModelCampaignConnection
}
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each resolver narrows its own parent and arguments
type Resolver<Context> = GraphQLFieldResolver<any, Context, any>;

/**
 * Builds the schema and attaches resolvers by type and field name; `wrap` then sees every field of
 * every object type (the hook that makes chosen records' fields fail).
 */
export function buildAppSyncSchema<Context>(
  resolvers: Record<string, Record<string, Resolver<Context>>>,
  wrap: (typeName: string, resolve: Resolver<Context>) => Resolver<Context>,
  campaignIndex = false,
): GraphQLSchema {
  const schema = buildSchema(campaignIndex ? APPSYNC_SDL + APPSYNC_CAMPAIGN_INDEX_SDL : APPSYNC_SDL);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`No object type ${typeName} in the AppSync schema`);
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = type.getFields()[fieldName];
      if (!field && fieldName === CAMPAIGN_INDEX_FIELD && !campaignIndex) continue;
      if (!field) throw new Error(`No field ${typeName}.${fieldName} in the AppSync schema`);
      field.resolve = resolve;
    }
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields()))
      field.resolve = wrap(type.name, field.resolve ?? defaultFieldResolver);
  }
  return schema;
}
