/** The sandbox on free ports with its data in a temporary folder that `close()` removes. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';

export async function startThrowawaySandbox(prefix: string): Promise<RunningSandbox> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir });
  return {
    ...sandbox,
    async close() {
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
