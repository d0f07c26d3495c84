/**
 * The Marketing GraphQL schema, field for field as the spec names it. Types the spec leaves open
 * (the second objective type, the price type, filters, the businessAccounts arguments) are our
 * choices and are documented in the SDL descriptions, which introspection shows.
 */
import { buildSchema, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';

export const MARKETING_SDL = /* GraphQL */ `
"""A piece of advertising information published by a business account."""
type Campaign {
  id: ID!
  businessAccountId: ID!
  content: CampaignContent!
}

type CampaignContent {
  title: String!
  subtitle: String
  description: String
  """The campaign image rendered at \`width\` pixels (1 to 4096); every sandbox image is 16:9. Null when the campaign has none."""
  featuredImage(width: Int!): Image
  objective: CampaignObjective
}

"""What the campaign asks of the shopper. Select fields with an inline fragment on a type."""
union CampaignObjective = CouponObjective | VisitObjective

"""The campaign issues coupons (see requestCoupon). The price is free text: "4.99", "10% off", "Free with any order"."""
type CouponObjective {
  price: String
}

"""The campaign rewards repeat visits."""
type VisitObjective {
  visitsRequired: Int!
  reward: String
}

type Image {
  url: String!
}

type CampaignPage {
  items: [Campaign!]!
  """Pass it back as \`nextToken\` with the same filter to get the next page; null on the last page."""
  nextToken: String
}

input StringFilter {
  eq: String
}

input BooleanFilter {
  eq: Boolean
}

input CampaignFilter {
  businessAccountId: StringFilter
}

input BusinessAccountFilter {
  category: StringFilter
  pending: BooleanFilter
}

type Address {
  streetAddress: String!
  postalCode: String!
  city: String!
}

type CustomProperty {
  key: String!
  value: String!
}

"""A company, store or merchant in the loyalty program."""
type BusinessAccount {
  id: ID!
  name: String!
  websiteUrl: String
  address: Address
  description: String
  phoneNumber: String
  category: String
  logo: Image
  """True while the account awaits approval by the program manager; such accounts should not be shown to shoppers."""
  pending: Boolean!
  customProperties: [CustomProperty!]!
}

type BusinessAccountPage {
  items: [BusinessAccount!]!
  nextToken: String
}

type Coupon {
  code: String!
}

type RequestCouponPayload {
  coupon: Coupon!
}

type Query {
  """Campaigns, in a stable order. \`limit\` defaults to 10 and may be 1 to 50."""
  campaigns(filter: CampaignFilter, limit: Int, nextToken: String): CampaignPage!
  """One campaign, or null when no campaign has that id."""
  campaign(id: ID!): Campaign
  """Business accounts, pending ones included unless filtered out. \`limit\` defaults to 10 and may be 1 to 50."""
  businessAccounts(filter: BusinessAccountFilter, limit: Int, nextToken: String): BusinessAccountPage!
}

type Mutation {
  """Issues a new coupon for a campaign with a coupon objective; every call returns a new code."""
  requestCoupon(campaignId: ID!): RequestCouponPayload!
}
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each resolver narrows its own parent and arguments
export type ResolverMap<Context> = Record<string, Record<string, GraphQLFieldResolver<any, Context, any>>>;

/** Builds the schema from the SDL and attaches resolvers by type and field name. */
export function buildMarketingSchema<Context>(resolvers: ResolverMap<Context>): GraphQLSchema {
  const schema = buildSchema(MARKETING_SDL);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`No object type ${typeName} in the Marketing schema`);
    const typeFields = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = typeFields[fieldName];
      if (!field) throw new Error(`No field ${typeName}.${fieldName} in the Marketing schema`);
      field.resolve = resolve;
    }
  }
  return schema;
}
