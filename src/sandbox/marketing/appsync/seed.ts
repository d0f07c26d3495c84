/**
 * The appsync flavour's default records: the default seed's shops and campaigns as an Amplify table
 * would hold them (numeric prices, in a scan order that mixes business accounts), plus records with
 * nulls wherever the schema allows them and an objective type the widgets do not know.
 */
import { createHash } from 'node:crypto';
import { defaultSeed } from '../seed.ts';
import type { ObjectiveRecord } from '../records.ts';
import type {
  AppSyncBusinessAccountRecord,
  AppSyncCampaignRecord,
  AppSyncObjectiveRecord,
  AppSyncSeed,
} from './records.ts';

function objective(record: ObjectiveRecord | null): AppSyncObjectiveRecord | null {
  if (!record) return null;
  if (record.type === 'visit') return record;
  // Free-text prices ("10% off") have no number; the table would hold none.
  const price = record.price !== null && /^\d+(\.\d+)?$/.test(record.price) ? Number(record.price) : null;
  return { type: 'coupon', price };
}

const extraAccounts: AppSyncBusinessAccountRecord[] = [
  {
    id: 'biz-crumb-bakery',
    name: 'Crumb & Co. Bakery',
    websiteUrl: null,
    address: { streetAddress: '9 Mill Lane', postalCode: null, city: 'Boulder' },
    description: null,
    phoneNumber: null,
    category: 'Bakery',
    logoUrl: null,
    pending: false,
    customProperties: [null, { key: 'vegan', value: null }, { key: 'glutenFree', value: 'Fridays' }],
    colors: ['#8d6e63', '#ffe0b2'],
  },
  {
    id: 'biz-unnamed-kiosk',
    name: null,
    websiteUrl: null,
    address: null,
    description: null,
    phoneNumber: null,
    category: null,
    pending: null,
    customProperties: null,
  },
  {
    id: 'biz-corner-florist',
    name: 'Corner Florist',
    websiteUrl: 'https://cornerflorist.example',
    address: null,
    description: 'Seasonal bouquets and plants.',
    phoneNumber: '+1 303-555-0150',
    category: 'Flowers',
    pending: false,
    customProperties: [],
    colors: ['#ad1457', '#f8bbd0'],
  },
];

const extraCampaigns: AppSyncCampaignRecord[] = [
  {
    id: 'camp-crumb-sourdough',
    businessAccountId: 'biz-crumb-bakery',
    content: {
      title: 'Sourdough Saturday',
      subtitle: null,
      description: null,
      objective: { type: 'coupon', price: 3.5 },
      colors: ['#6d4c41', '#ffcc80'],
    },
  },
  {
    id: 'camp-crumb-survey',
    businessAccountId: 'biz-crumb-bakery',
    content: {
      title: 'Tell us your favourite loaf',
      subtitle: 'Five questions',
      description: null,
      objective: { type: 'survey', questionCount: 5, surveyUrl: 'https://crumb.example/survey' },
    },
  },
  { id: 'camp-crumb-no-content', businessAccountId: 'biz-crumb-bakery', content: null },
  {
    id: 'camp-florist-untitled',
    businessAccountId: 'biz-corner-florist',
    content: { title: null, subtitle: null, description: null, objective: null },
  },
  {
    id: 'camp-florist-bouquet',
    businessAccountId: 'biz-corner-florist',
    content: {
      title: 'Friday bouquet',
      subtitle: null,
      description: 'Ten stems of what is in season.',
      objective: { type: 'coupon', price: null },
      featuredImageUrl: null,
    },
  },
  {
    id: 'camp-florist-visits',
    businessAccountId: 'biz-corner-florist',
    content: {
      title: 'Plant club',
      subtitle: null,
      description: null,
      objective: { type: 'visit', visitsRequired: null, reward: null },
      colors: ['#2e7d32', '#c8e6c9'],
    },
  },
  {
    id: 'camp-kiosk-survey',
    businessAccountId: 'biz-unnamed-kiosk',
    content: {
      title: 'Quick poll',
      subtitle: null,
      description: null,
      objective: { type: 'survey', questionCount: null, surveyUrl: null },
    },
  },
  {
    id: 'camp-orphan',
    businessAccountId: 'biz-closed-long-ago',
    content: { title: 'Closing-down sale', subtitle: null, description: null, objective: { type: 'coupon', price: 1 } },
  },
];

/** A stable order that mixes business accounts, as a DynamoDB scan (ordered by key hash) does. */
function scanOrder<T extends { id: string }>(records: T[]): T[] {
  const key = (id: string) => createHash('sha256').update(id).digest('hex');
  return [...records].sort((a, b) => (key(a.id) < key(b.id) ? -1 : 1));
}

/** A fresh, independent copy of the appsync flavour's default records. */
export function appsyncSeed(): AppSyncSeed {
  const base = defaultSeed();
  const accounts: AppSyncBusinessAccountRecord[] = base.businessAccounts.map((account) =>
    account.id === 'biz-harbor-coffee'
      ? { ...account, customProperties: [...account.customProperties, null, { key: 'terrace', value: null }] }
      : account,
  );
  const campaigns: AppSyncCampaignRecord[] = base.campaigns.map(
    ({ id, businessAccountId, objective: record, ...content }) => ({
      id,
      businessAccountId,
      content: { ...content, objective: objective(record) },
    }),
  );
  return structuredClone({
    businessAccounts: scanOrder([...accounts, ...extraAccounts]),
    campaigns: scanOrder([...campaigns, ...extraCampaigns]),
  });
}
