/**
 * The three browser engines the widgets are tested in, all from the system's packages (nothing
 * downloads a browser): Chromium over CDP, Firefox over WebDriver BiDi (puppeteer), and WebKitGTK's
 * MiniBrowser over classic WebDriver (WebKitWebDriver, which needs an X server: one is started
 * when the environment has none).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteerCore from 'puppeteer-core';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import type { BrowserLauncher, TestRunnerCoreConfig } from '@web/test-runner-core';
import type { Capabilities } from '@wdio/types';

export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;

/** Chromium headless, without the background traffic and first-run work a test has no use for. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export type Engine = (typeof ENGINES)[number];

/** Where each engine's programs are (environment variables override the Debian paths). */
export function enginePaths(env: NodeJS.ProcessEnv = process.env) {
  return {
    chromium: [env.CHROME_PATH || '/usr/bin/chromium'],
    firefox: [env.FIREFOX_PATH || '/usr/bin/firefox-esr'],
    webkit: [
      env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver',
      env.WEBKIT_BROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    ],
  } satisfies Record<Engine, string[]>;
}

/** The programs an engine needs that are not installed (empty when it can run). */
export function missingPrograms(engine: Engine, env: NodeJS.ProcessEnv = process.env): string[] {
  const programs = [...enginePaths(env)[engine]];
  if (engine === 'webkit' && !env.DISPLAY) programs.push(env.XVFB_PATH || '/usr/bin/Xvfb');
  return programs.filter((path) => {
    try {
      accessSync(path, constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
}

/** The version a browser reports with `--version` ("Mozilla Firefox 153.7.0esr" → "153.7.0esr"), or undefined. */
export function browserVersion(executable: string): string | undefined {
  const run = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return /(\d+(?:\.\d+)+\S*)/.exec(`${run.stdout ?? ''}`)?.[1];
}

/**
 * The oldest Firefox the installed puppeteer-core drives over WebDriver BiDi: the one it was released
 * for (its pinned `stable_<version>`). An older Firefox does not know every command it sends (Firefox
 * 140 and `emulation.setScreenOrientationOverride`), so every test would fail at start.
 */
export function firefoxNeeded(): { driver: string; major: number } {
  const resolve = createRequire(import.meta.url).resolve;
  const manifest = resolve('puppeteer-core/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const revisions = readFileSync(resolve('puppeteer-core/lib/esm/puppeteer/revisions.js'), 'utf8');
  const pinned = /firefox:\s*'stable_(\d+)\./.exec(revisions)?.[1];
  if (!pinned) throw new Error(`puppeteer-core ${version}: no pinned Firefox version found in its revisions`);
  return { driver: `puppeteer-core ${version}`, major: Number(pinned) };
}

/**
 * One line when the engine's browser is one its installed driver cannot drive (engine, version
 * found, what is needed), else undefined. Chromium (CDP) and WebKitGTK (classic WebDriver) take any
 * version their driver starts; Firefox must be as new as the one puppeteer-core was released for.
 */
export function undrivableBrowser(engine: Engine, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (engine !== 'firefox') return undefined;
  const executable = enginePaths(env).firefox[0]!;
  const found = browserVersion(executable);
  const needed = firefoxNeeded();
  if (found && Number.parseInt(found, 10) >= needed.major) return undefined;
  return (
    `firefox: ${executable} is Firefox ${found ?? '(no version reported)'}; ${needed.driver} drives Firefox ${needed.major} or later ` +
    '(install a newer firefox-esr, or point FIREFOX_PATH at one)'
  );
}

export function launcherFor(engine: Engine): BrowserLauncher {
  const paths = enginePaths();
  if (engine === 'chromium') {
    return chromeLauncher({
      launchOptions: {
        executablePath: paths.chromium[0],
        headless: true,
        args: CHROMIUM_ARGS,
      },
    });
  }
  if (engine === 'firefox') {
    // Puppeteer turns Firefox's popup blocker off; shoppers have it on, so it stays on here.
    // web-test-runner's Chrome launcher drives Firefox too when handed puppeteer-core, which never
    // downloads a browser (unlike puppeteer, which @web/test-runner-puppeteer would bring).
    return chromeLauncher({
      puppeteer: puppeteerCore,
      launchOptions: {
        browser: 'firefox',
        executablePath: paths.firefox[0],
        headless: true,
        // One browser runs every test file, each opening popups: Firefox's cap on open popups (20) is
        // a shopper's protection against a page that opens many, not a limit a test run should meet.
        extraPrefsFirefox: { 'dom.disable_open_during_load': true, 'dom.popup_maximum': 1000 },
      },
    });
  }
  return new WebKitLauncher();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts Xvfb on the first free display and resolves with its name (Xvfb writes the number to
 * `-displayfd`). Its built-in fonts suffice (WebKit draws text with fontconfig), so no X font package is needed.
 */
function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(
    process.env.XVFB_PATH || '/usr/bin/Xvfb',
    ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-fp', 'built-ins'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let written = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      written += chunk.toString();
      if (written.includes('\n')) resolve({ display: `:${written.trim()}`, process: xvfb });
    });
    xvfb.on('error', reject);
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
}

async function waitForDriver(url: string, driver: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driver.exitCode}`);
    try {
      if ((await fetch(`${url}/status`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('WebKitWebDriver did not start within 20 s');
}

/** The capabilities of a MiniBrowser session (WebKitWebDriver speaks classic WebDriver only). */
export function webKitCapabilities(): WebdriverIO.Capabilities {
  return {
    browserName: 'MiniBrowser',
    'wdio:enforceWebDriverClassic': true,
    'webkitgtk:browserOptions': { binary: enginePaths().webkit[1], args: ['--automation'] },
  } as WebdriverIO.Capabilities;
}

/**
 * Starts WebKitWebDriver on a free port (one session per driver process), with an Xvfb display
 * when the environment has none; `stop()` ends both.
 */
export async function startWebKitDriver(): Promise<{ url: string; stop(): Promise<void> }> {
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) child.kill();
  };
  try {
    const env = { ...process.env };
    if (!env.DISPLAY) {
      const xvfb = await startXvfb();
      children.push(xvfb.process);
      env.DISPLAY = xvfb.display;
    }
    const port = await freePort();
    const driver = spawn(enginePaths().webkit[0]!, [`--port=${port}`], { env, stdio: 'ignore' });
    children.push(driver);
    const url = `http://127.0.0.1:${port}`;
    await waitForDriver(url, driver);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** WebKitGTK's MiniBrowser for web-test-runner, through its own driver (and display) for the whole run. */
class WebKitLauncher extends WebdriverLauncher {
  private stopDriver?: () => Promise<void>;
  /** The launcher's own options object, completed with the driver's address once it listens. */
  private readonly driverOptions: Capabilities.WebdriverIOConfig;

  constructor(
    driverOptions: Capabilities.WebdriverIOConfig = { logLevel: 'error', capabilities: webKitCapabilities() },
  ) {
    super(driverOptions);
    this.driverOptions = driverOptions;
  }

  override async initialize(config: TestRunnerCoreConfig): Promise<void> {
    const driver = await startWebKitDriver();
    this.stopDriver = driver.stop;
    const { hostname, port } = new URL(driver.url);
    Object.assign(this.driverOptions, { hostname, port: Number(port), path: '/' });
    await super.initialize(config);
    this.name = 'WebKit';
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.stopDriver?.();
  }
}
