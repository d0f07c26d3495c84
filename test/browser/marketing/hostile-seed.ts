/**
 * Hostile Marketing records that the test sandbox serves next to its default seed (see
 * test/support/services.ts), so the browser tests can show that text stays text and unsafe URLs
 * are dropped. Plain data: imported by the Node side and by the browser tests alike.
 */
export const HOSTILE_ACCOUNT_ID = 'biz-hostile-test';
export const HOSTILE_CAMPAIGN_ID = 'camp-hostile-test';
export const HOSTILE_CATEGORY = 'Hostile test';
export const HOSTILE_TEXT = '<img src=x onerror="window.__pwned=1">';

export const hostileBusinessAccounts = [
  {
    id: HOSTILE_ACCOUNT_ID,
    name: `Hostile ${HOSTILE_TEXT} & Co`,
    websiteUrl: 'javascript:window.__pwned=1',
    address: { streetAddress: '1 <b>Bold</b> Street', postalCode: '00000', city: 'Nowhere' },
    description: HOSTILE_TEXT,
    phoneNumber: '+1 (555) 010-9999 <script>',
    category: HOSTILE_CATEGORY,
    logoUrl: 'http://evil.example/logo.png',
    pending: false,
    customProperties: [{ key: '<i>key</i>', value: HOSTILE_TEXT }],
  },
];

export const hostileCampaigns = [
  {
    id: HOSTILE_CAMPAIGN_ID,
    businessAccountId: HOSTILE_ACCOUNT_ID,
    title: `Hostile ${HOSTILE_TEXT}`,
    subtitle: '<script>window.__pwned=1</script>',
    description: HOSTILE_TEXT,
    objective: { type: 'coupon' as const, price: '<b>3</b>' },
    featuredImageUrl: 'javascript:window.__pwned=1//{width}',
  },
];
