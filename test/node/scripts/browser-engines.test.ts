/**
 * A browser that the installed driver cannot drive (a Firefox older than the one puppeteer-core was
 * released for, as Debian shipped for a while) is reported in one line, with the engine, the version
 * found and what is needed, and the browser suite stops there instead of failing every test.
 * The browser is a fake executable that only reports a version.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { browserVersion, firefoxNeeded, undrivableBrowser } from '../../support/engines.ts';

const root = resolve(import.meta.dirname, '../../..');
let dir: string;

/** An executable that answers `--version` the way firefox-esr does. */
async function fakeFirefox(version: string): Promise<string> {
  const path = join(dir, `firefox-${version}`);
  await writeFile(path, `#!/bin/sh\necho "Mozilla Firefox ${version}"\n`);
  await chmod(path, 0o755);
  return path;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loyalty-browsers-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a browser the installed driver cannot drive', () => {
  it('reads the version a browser reports', async () => {
    assert.equal(browserVersion(await fakeFirefox('140.12.0esr')), '140.12.0esr');
    assert.equal(browserVersion(join(dir, 'no-such-browser')), undefined);
  });

  it('names the engine, the version found and the version needed, in one line', async () => {
    const needed = firefoxNeeded();
    assert.match(needed.driver, /^puppeteer-core \d+\.\d+\.\d+$/);
    const old = await fakeFirefox(`${needed.major - 10}.12.0esr`);
    assert.equal(
      undrivableBrowser('firefox', { FIREFOX_PATH: old }),
      `firefox: ${old} is Firefox ${needed.major - 10}.12.0esr; ${needed.driver} drives Firefox ${needed.major} or later ` +
        '(install a newer firefox-esr, or point FIREFOX_PATH at one)',
    );
    assert.equal(
      undrivableBrowser('firefox', { FIREFOX_PATH: await fakeFirefox(`${needed.major - 1}.9.0esr`) })?.split('\n')
        .length,
      1,
    );
  });

  it('lets the release puppeteer-core was made for, and later ones, through', async () => {
    const { major } = firefoxNeeded();
    assert.equal(undrivableBrowser('firefox', { FIREFOX_PATH: await fakeFirefox(`${major}.0esr`) }), undefined);
    assert.equal(undrivableBrowser('firefox', { FIREFOX_PATH: await fakeFirefox(`${major + 3}.7.0esr`) }), undefined);
  });

  it('stops npm run test:browser before any test, with that line and exit code 1', async () => {
    const old = await fakeFirefox('140.12.0esr');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/test-browsers.ts'], {
      cwd: root,
      env: { ...process.env, WTR_BROWSERS: 'firefox', FIREFOX_PATH: old },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => child.once('close', done));
    assert.equal(code, 1);
    assert.doesNotMatch(stdout, /Browser tests in firefox/);
    const line = `firefox: ${old} is Firefox 140.12.0esr; ${firefoxNeeded().driver} drives Firefox ${firefoxNeeded().major} or later`;
    assert.equal(stderr.split('\n').filter((text) => text.trim().startsWith(line)).length, 1, stderr);
  });
});
