/**
 * What `import 'loyalty-widgets/sandbox'` loads (its types are index.ts's). The sandbox needs
 * graphql, hono and @hono/node-server, which only a merchant who runs it installs; loading index.ts
 * through a dynamic import lets their absence read as one sentence with the command that installs
 * them. The names below are index.ts's values, one for one (test/node/proxy/shared/peer-dependencies.test.ts).
 */
import { importWithPeers, SANDBOX_PEERS } from '../proxy/shared/peer-dependency.ts';

const sandbox = await importWithPeers(() => import('./index.ts'), SANDBOX_PEERS);

export const {
  APPSYNC_DEFAULT_LIMIT,
  APPSYNC_MAX_LIMIT,
  APPSYNC_SDL,
  CAMPAIGN_IMAGE_RATIO,
  DEFAULT_LIMIT,
  DEMO_APP_ID,
  MAX_LIMIT,
  SEED_USERS,
  appsyncSeed,
  defaultSeed,
  startConnect,
  startMarketing,
  startSandbox,
} = sandbox;
