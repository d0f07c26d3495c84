/**
 * What each built-in operation asks of the Marketing API, independent of how the upstream spells its
 * types: the root field, the arguments the browser's variables fill, and the fields to select. A
 * `required` field is one the operation cannot do without (in its parent); any other field is left
 * out when the upstream lacks it, and the answer then carries it empty (normalize.ts).
 */
import { IMAGE_WIDTHS } from './operations.ts';

export interface FieldSpec {
  name: string;
  alias?: string;
  /** Integer arguments written into the document (image widths). */
  args?: Readonly<Record<string, number>>;
  required?: boolean;
  /** What a missing optional field means for the widgets, when that is more than a null. */
  whenAbsent?: string;
  fields?: readonly FieldSpec[];
  /** Inline fragments by type name (`... on CouponObjective { price }`), kept only for types the upstream has there. */
  fragments?: Readonly<Record<string, readonly FieldSpec[]>>;
}

/** An argument of the root field and the browser variable that fills it. */
export type ArgumentSpec =
  /**
   * `name: $variable`, typed as the upstream types the argument. `droppable`: when the upstream cannot
   * take it, it is left out rather than refused (a page size the upstream chooses itself).
   */
  | { kind: 'value'; name: string; variable: string; scalar: 'string' | 'int'; droppable?: boolean }
  /** `filter: { <variable>: { eq: $value } }`, the AppSync filter shape. */
  | { kind: 'filter'; name: string; variable: string };

export interface OperationSpec {
  kind: 'query' | 'mutation';
  field: string;
  /** The name the answer carries the root field under, when the field is another (an index's query field). */
  alias?: string;
  arguments: readonly ArgumentSpec[];
  fields: readonly FieldSpec[];
}

const CAMPAIGN: readonly FieldSpec[] = [
  { name: 'id', required: true },
  { name: 'businessAccountId' },
  {
    name: 'content',
    required: true,
    fields: [
      { name: 'title', required: true },
      { name: 'subtitle' },
      { name: 'description' },
      ...IMAGE_WIDTHS.map((width) => ({
        name: 'featuredImage',
        alias: `img${width}`,
        args: { width },
        fields: [{ name: 'url', required: true }],
      })),
      {
        name: 'objective',
        fields: [{ name: '__typename', required: true }],
        fragments: { CouponObjective: [{ name: 'price' }] },
      },
    ],
  },
];

const BUSINESS_ACCOUNT: readonly FieldSpec[] = [
  // The proxy's answers drop accounts without id or name (normalize.ts).
  { name: 'id', required: true },
  { name: 'name', required: true },
  { name: 'websiteUrl' },
  { name: 'address', fields: [{ name: 'streetAddress' }, { name: 'postalCode' }, { name: 'city' }] },
  { name: 'description' },
  { name: 'phoneNumber' },
  { name: 'category' },
  { name: 'logo', fields: [{ name: 'url', required: true }] },
  { name: 'pending', whenAbsent: 'every account counts as pending, so the directory lists none' },
  { name: 'customProperties', fields: [{ name: 'key', required: true }, { name: 'value' }] },
];

const page = (items: readonly FieldSpec[]): FieldSpec[] => [
  { name: 'items', required: true, fields: items },
  { name: 'nextToken' },
];

const paging: ArgumentSpec[] = [
  { kind: 'value', name: 'limit', variable: 'limit', scalar: 'int', droppable: true },
  { kind: 'value', name: 'nextToken', variable: 'nextToken', scalar: 'string' },
];

export const OPERATION_SPECS: Readonly<Record<string, OperationSpec>> = {
  campaigns: {
    kind: 'query',
    field: 'campaigns',
    arguments: [{ kind: 'filter', name: 'filter', variable: 'businessAccountId' }, ...paging],
    fields: page(CAMPAIGN),
  },
  campaign: {
    kind: 'query',
    field: 'campaign',
    arguments: [{ kind: 'value', name: 'id', variable: 'id', scalar: 'string' }],
    fields: CAMPAIGN,
  },
  businessAccounts: {
    kind: 'query',
    field: 'businessAccounts',
    arguments: [{ kind: 'filter', name: 'filter', variable: 'category' }, ...paging],
    fields: page(BUSINESS_ACCOUNT),
  },
  requestCoupon: {
    kind: 'mutation',
    field: 'requestCoupon',
    arguments: [{ kind: 'value', name: 'campaignId', variable: 'campaignId', scalar: 'string' }],
    fields: [{ name: 'coupon', required: true, fields: [{ name: 'code', required: true }] }],
  },
};

/**
 * `campaigns` of one business account through the query field of an index on
 * `Campaign.businessAccountId` (Amplify's `@index(queryField: …)`): it reads only that account's rows,
 * so a page is full in one call, where a filtered scan reads every row. Answers under `campaigns`.
 */
export function campaignsByIndexSpec(field: string): OperationSpec {
  return {
    kind: 'query',
    field,
    alias: 'campaigns',
    arguments: [
      { kind: 'value', name: 'businessAccountId', variable: 'businessAccountId', scalar: 'string' },
      ...paging,
    ],
    fields: page(CAMPAIGN),
  };
}
