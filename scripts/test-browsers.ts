/**
 * Runs the browser suite once per engine (Chromium, Firefox, WebKit), one after the other, each
 * against its own sandbox. An engine that is not installed is skipped with a note, except in CI
 * (CI=true), where every engine must run: a missing one fails the run. `WTR_BROWSERS` picks engines.
 */
import { spawnSync } from 'node:child_process';
import { ENGINES, missingPrograms, type Engine } from '../test/support/engines.ts';

const chosen = (process.env.WTR_BROWSERS || ENGINES.join(',')).split(',').map((name) => name.trim()) as Engine[];
const unknown = chosen.filter((name) => !ENGINES.includes(name));
if (unknown.length) {
  console.error(`WTR_BROWSERS: unknown engine ${unknown.join(', ')} (one of ${ENGINES.join(', ')})`);
  process.exit(2);
}
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

const failed: string[] = [];
for (const engine of chosen) {
  const missing = missingPrograms(engine);
  if (missing.length) {
    const note = `${engine}: not installed (${missing.join(', ')} missing; on Debian: apt-get install chromium firefox-esr webkit2gtk-driver xvfb)`;
    if (inCi) failed.push(note);
    else console.warn(`Skipping ${note}`);
    continue;
  }
  console.log(`\nBrowser tests in ${engine}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'node_modules/@web/test-runner/dist/bin.js'], {
    stdio: 'inherit',
    env: { ...process.env, WTR_BROWSERS: engine },
  });
  if (run.status !== 0) failed.push(`${engine}: tests failed (exit ${run.status ?? run.signal})`);
}

if (failed.length) {
  console.error(`\nBrowser tests failed:\n  ${failed.join('\n  ')}`);
  process.exit(1);
}
