/**
 * The local sandbox of the loyalty service: Connect (an OpenID Connect provider, implicit flow) and
 * Marketing (GraphQL), so the widgets run and are tested offline.
 */
export type { SandboxFlavor, SandboxOptions } from './options.ts';
export type { SandboxStats } from './marketing/resolvers.ts';
export type {
  AddressRecord,
  BusinessAccountRecord,
  CampaignRecord,
  KeyValueRecord,
  MarketingSeed,
  ObjectiveRecord,
} from './marketing/records.ts';
export { defaultSeed } from './marketing/seed.ts';
export type {
  AppSyncBusinessAccountRecord,
  AppSyncCampaignContentRecord,
  AppSyncCampaignRecord,
  AppSyncObjectiveRecord,
  AppSyncSeed,
  ResolverFailure,
} from './marketing/appsync/records.ts';
export { appsyncSeed } from './marketing/appsync/seed.ts';
export { APPSYNC_DEFAULT_LIMIT, APPSYNC_MAX_LIMIT } from './marketing/appsync/resolvers.ts';
export { APPSYNC_SDL } from './marketing/appsync/schema.ts';
export { startMarketing, type RunningMarketing } from './marketing/start.ts';
export { DEFAULT_LIMIT, MAX_LIMIT } from './marketing/paging.ts';
export { CAMPAIGN_IMAGE_RATIO } from './marketing/images.ts';
export { startSandbox, type RunningSandbox } from './sandbox.ts';
export { startConnect, type RunningConnect } from './connect/start.ts';
export type { AppRegistration, RegisterAppInput } from './connect/apps.ts';
export { DEMO_APP_ID } from './connect/apps.ts';
export { SEED_USERS, type SeedUser } from './connect/users.ts';
