/**
 * The Marketing sandbox's default seed (its record types are in records.ts). Tests pass their own
 * records (for example hostile text or URLs) through the `seed` option of startMarketing/startSandbox.
 */
import type { BusinessAccountRecord, MarketingSeed } from './records.ts';
import { seedCampaigns } from './seed-campaigns.ts';

const businessAccounts: BusinessAccountRecord[] = [
  {
    id: 'biz-harbor-coffee',
    name: 'Harbor Coffee Roasters',
    websiteUrl: 'https://harborcoffee.example',
    address: { streetAddress: '14 Quay Street', postalCode: '94107', city: 'San Francisco' },
    description:
      'Small-batch roastery on the waterfront. Single-origin beans roasted every morning, pastries from the bakery next door.',
    phoneNumber: '+1 415-555-0142',
    category: 'Cafe',
    pending: false,
    customProperties: [
      { key: 'openingHours', value: 'Mon–Sat 7:00–18:00, Sun 8:00–16:00' },
      { key: 'wifi', value: 'yes' },
    ],
    colors: ['#6b3e26', '#d9a066'],
  },
  {
    id: 'biz-greenleaf-market',
    name: 'Greenleaf Market',
    websiteUrl: 'https://greenleaf-market.example',
    address: { streetAddress: '220 Valencia Street', postalCode: '94103', city: 'San Francisco' },
    description:
      'Neighbourhood grocery with local produce, a bulk aisle and a deli counter. Bring your own containers.',
    phoneNumber: '+1 415-555-0178',
    category: 'Grocery',
    pending: false,
    customProperties: [
      { key: 'delivery', value: 'Same-day within 5 km' },
      { key: 'parking', value: 'Bike racks at the front' },
    ],
    colors: ['#2f7d32', '#a5d6a7'],
  },
  {
    id: 'biz-peak-outfitters',
    name: 'Peak Outfitters',
    websiteUrl: 'https://peakoutfitters.example',
    address: { streetAddress: '3 Alpine Road', postalCode: '80302', city: 'Boulder' },
    description: 'Climbing, hiking and camping gear, rentals and a repair bench staffed by people who use it.',
    phoneNumber: '+1 303-555-0119',
    category: 'Outdoor',
    pending: false,
    customProperties: [
      { key: 'rentals', value: 'Tents, crash pads, snowshoes' },
      { key: 'repairs', value: 'Resoling and zip replacement' },
    ],
    colors: ['#1e3a5f', '#7fb3d5'],
  },
  {
    id: 'biz-lumen-books',
    name: 'Lumen Books',
    websiteUrl: 'https://lumenbooks.example',
    address: { streetAddress: '88 Rue des Carmes', postalCode: '75005', city: 'Paris' },
    description: 'Independent bookshop with a translated-fiction wall, a children’s corner and readings on Thursdays.',
    phoneNumber: '+33 1 55 55 01 23',
    category: 'Books',
    pending: false,
    customProperties: [{ key: 'events', value: 'Author readings every Thursday at 19:00' }],
    colors: ['#5b2c6f', '#d2b4de'],
  },
  {
    id: 'biz-nova-fitness',
    name: 'Nova Fitness Studio',
    websiteUrl: 'https://novafitness.example',
    address: { streetAddress: '501 Market Street, Suite 2', postalCode: '94105', city: 'San Francisco' },
    description: 'Boutique studio for spin, strength and yoga classes. Opening soon — awaiting approval.',
    phoneNumber: '+1 415-555-0190',
    category: 'Fitness',
    pending: true,
    customProperties: [{ key: 'opening', value: 'Spring' }],
    colors: ['#b03a2e', '#f5b7b1'],
  },
];

/** A fresh, independent copy of the default seed (callers may change it freely). */
export function defaultSeed(): MarketingSeed {
  return structuredClone({ businessAccounts, campaigns: seedCampaigns });
}
