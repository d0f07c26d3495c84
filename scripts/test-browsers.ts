/**
 * Runs the browser suite once per engine (Chromium, Firefox, WebKit), one after the other, each
 * against its own sandbox. An engine that is not installed is skipped with a note, except in CI
 * (CI=true), where every engine must run: a missing one fails the run. A browser that its driver
 * cannot drive (too old for it) fails the run with one line saying so, before any test. `WTR_BROWSERS` picks engines.
 */
import { spawnSync } from 'node:child_process';
import { ENGINES, missingPrograms, undrivableBrowser, type Engine } from '../test/support/engines.ts';

const chosen = (process.env.WTR_BROWSERS || ENGINES.join(',')).split(',').map((name) => name.trim()) as Engine[];
const unknown = chosen.filter((name) => !ENGINES.includes(name));
if (unknown.length) {
  console.error(`WTR_BROWSERS: unknown engine ${unknown.join(', ')} (one of ${ENGINES.join(', ')})`);
  process.exit(2);
}
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

/** Runs one engine's suite, echoing its output; `hung` when it timed out with no failed test. */
function runEngine(engine: Engine): 'passed' | 'failed' | 'hung' {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'node_modules/@web/test-runner/dist/bin.js'], {
    stdio: ['inherit', 'pipe', 'pipe'],
    // WebKit's whole suite takes about a minute: three minutes is ample, and a hung run ends sooner.
    env: { WTR_FINISH_TIMEOUT: engine === 'webkit' ? '180000' : undefined, ...process.env, WTR_BROWSERS: engine },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  if (run.status === 0) return 'passed';
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  return /did not finish within/.test(output) && / 0 failed/.test(output.slice(output.lastIndexOf('test files')))
    ? 'hung'
    : 'failed';
}

const failed: string[] = [];
for (const engine of chosen) {
  const missing = missingPrograms(engine);
  if (missing.length) {
    const note = `${engine}: not installed (${missing.join(', ')} missing; on Debian: apt-get install chromium firefox-esr webkit2gtk-driver xvfb)`;
    if (inCi) failed.push(note);
    else console.warn(`Skipping ${note}`);
    continue;
  }
  // A browser its driver cannot drive would fail every test at start: the run fails with one line instead.
  const undrivable = undrivableBrowser(engine);
  if (undrivable) {
    failed.push(undrivable);
    continue;
  }
  console.log(`\nBrowser tests in ${engine}`);
  let status = runEngine(engine);
  // WebKitGTK's WebDriver now and then stops answering when a real key press opens a popup that closes
  // again while the press is being performed: the run then hangs until web-test-runner gives up, with
  // no test failed. Only that hang, never a failed test, is run again (at most twice), and said so.
  for (let attempt = 1; engine === 'webkit' && status === 'hung' && attempt <= 2; attempt++) {
    console.warn(
      `\n${engine}: the WebDriver session stopped answering (no test failed); running the ${engine} suite again (${attempt} of 2).`,
    );
    status = runEngine(engine);
  }
  if (status !== 'passed') failed.push(`${engine}: tests ${status === 'hung' ? 'did not finish' : 'failed'}`);
}

if (failed.length) {
  console.error(`\nBrowser tests failed:\n  ${failed.join('\n  ')}`);
  process.exit(1);
}
