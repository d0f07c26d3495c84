/**
 * A real WordPress for the plugin's tests: Debian's `wordpress` package (/usr/share/wordpress, its
 * themes from `wordpress-theme-*`), MariaDB on a socket in a temporary folder, PHP's built-in server on
 * 127.0.0.1, installed through PHP itself (Debian has no wp-cli). The site's folder links to the
 * package's files and has its own wp-config.php and wp-content; WP_DEBUG is on and every PHP notice,
 * warning or error goes to a log the tests read. Nothing may reach wordpress.org: external HTTP is
 * blocked, updates and cron are off.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../runtimes/support/hosts.ts';

const WORDPRESS = process.env.WORDPRESS_PATH || '/usr/share/wordpress';
const THEMES = ['twentytwentythree', 'twentytwentyone'];
/** No mail leaves the test site. */
const PHP_SETTINGS = ['-d', 'sendmail_path=/bin/true'];

export interface WordPressUser {
  login: string;
  password: string;
  role: 'administrator' | 'editor' | 'author' | 'contributor';
}

export const USERS: Record<WordPressUser['role'], WordPressUser> = {
  administrator: { login: 'admin', password: 'admin-password-1', role: 'administrator' },
  editor: { login: 'editor', password: 'editor-password-1', role: 'editor' },
  author: { login: 'author', password: 'author-password-1', role: 'author' },
  contributor: { login: 'contributor', password: 'contributor-password-1', role: 'contributor' },
};

export interface RunningWordPress {
  url: string;
  folder: string;
  /** Runs PHP with WordPress loaded (as the administrator); returns what it prints. */
  php(code: string): string;
  /** PHP notices, warnings and errors logged since the last call. */
  takeLog(): string;
  /** Sets or clears DISALLOW_UNFILTERED_HTML for the next requests. */
  disallowUnfilteredHtml(on: boolean): void;
  close(): Promise<void>;
}

/** The programs the tests need, with the Debian package of each that is missing. */
export function missingPrograms(): string[] {
  const missing: string[] = [];
  if (!existsSync(join(WORDPRESS, 'wp-settings.php'))) missing.push('wordpress');
  for (const theme of THEMES) {
    if (!existsSync(join(WORDPRESS, 'wp-content/themes', theme))) missing.push(`wordpress-theme-${theme}`);
  }
  if (spawnSync('php', ['-v']).status !== 0) missing.push('php-cli');
  else {
    const modules = spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout;
    if (!/^mysqli$/m.test(modules)) missing.push('php-mysql');
    // What every WordPress host has (Site Health asks for it): feeds and the block parser need it.
    if (!/^xml$/m.test(modules)) missing.push('php-xml');
  }
  if (spawnSync('mariadb-install-db', ['--help']).error) missing.push('mariadb-server');
  return missing;
}

/**
 * Why the WordPress tests skip on this machine (`apt-get install …`), or false when all they need is
 * installed. In CI nothing may be missing: it throws, naming the packages.
 */
export function wordPressSkip(): string | false {
  const missing = missingPrograms();
  if (!missing.length) return false;
  if (Boolean(process.env.CI) && process.env.CI !== 'false')
    throw new Error(`WordPress tests need the Debian packages: ${missing.join(' ')}`);
  return `apt-get install ${missing.join(' ')}`;
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Stops a child and waits for it to exit. A child started `detached` leads a process group of its
 * own, and the whole group is stopped: PHP's server forks its workers, which outlive their parent.
 */
function stopped(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    if (group) killGroup(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    if (group) killGroup(child);
    else child.kill('SIGTERM');
  });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // The group is gone already.
  }
}

/** Starts MariaDB and WordPress, installs WordPress with its three users, and serves it. */
export async function startWordPress(): Promise<RunningWordPress> {
  const folder = await mkdtemp(join(tmpdir(), 'loyalty-wp-'));
  const children: ChildProcess[] = [];
  const groups = new WeakSet<ChildProcess>();
  const close = async (): Promise<void> => {
    for (const child of children.reverse()) await stopped(child, groups.has(child));
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const socket = join(folder, 'mysql.sock');
    const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
    const install = spawnSync(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${join(folder, 'db')}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        ...asRoot,
      ],
      { encoding: 'utf8' },
    );
    if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
    const database = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${join(folder, 'db')}`,
        `--socket=${socket}`,
        `--pid-file=${join(folder, 'mysql.pid')}`,
        '--skip-networking',
        '--skip-grant-tables',
        '--innodb-buffer-pool-size=16M',
        ...asRoot,
      ],
      { stdio: 'ignore' },
    );
    children.push(database);
    await waitUntil(() => existsSync(socket), 'MariaDB listening on its socket');

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const site = join(folder, 'site');
    mkdirSync(site);
    for (const entry of readdirSync(WORDPRESS)) {
      if (entry !== 'wp-config.php' && entry !== 'wp-content') symlinkSync(join(WORDPRESS, entry), join(site, entry));
    }
    for (const dir of ['wp-content/themes', 'wp-content/plugins', 'wp-content/uploads', 'wp-content/mu-plugins']) {
      mkdirSync(join(site, dir), { recursive: true });
    }
    for (const theme of THEMES) {
      symlinkSync(join(WORDPRESS, 'wp-content/themes', theme), join(site, 'wp-content/themes', theme));
    }
    writeFileSync(
      join(site, 'wp-content/mu-plugins/test-site.php'),
      readFileSync(new URL('./mu-plugin.php', import.meta.url)),
    );
    const log = join(folder, 'php-errors.log');
    writeFileSync(log, '');
    writeFileSync(
      join(site, 'wp-config.php'),
      `<?php
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', 'localhost:${socket}' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
foreach ( array( 'AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT' ) as $name ) {
  define( $name, '${folder}' . $name );
}
$table_prefix = 'wp_';
define( 'WP_HOME', '${url}' );
define( 'WP_SITEURL', '${url}' );
define( 'WP_CONTENT_DIR', __DIR__ . '/wp-content' );
define( 'WP_CONTENT_URL', '${url}/wp-content' );
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_LOG', '${log}' );
define( 'WP_DEBUG_DISPLAY', false );
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_AUTO_UPDATE_CORE', false );
define( 'DISABLE_WP_CRON', true );
define( 'FS_METHOD', 'direct' );
if ( file_exists( __DIR__ . '/disallow-unfiltered-html' ) ) {
  define( 'DISALLOW_UNFILTERED_HTML', true );
}
require_once ABSPATH . 'wp-settings.php';
`,
    );
    // The site's folder holds links to the package's files, and PHP resolves links in __FILE__: ABSPATH
    // is set here, so WordPress reads this wp-config.php rather than Debian's.
    const router = join(folder, 'router.php');
    writeFileSync(
      router,
      `<?php
define( 'ABSPATH', ${JSON.stringify(site + '/')} );
$path = parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH );
$file = ABSPATH . ltrim( urldecode( $path ), '/' );
if ( '/' !== $path && ( is_file( $file ) || is_file( rtrim( $file, '/' ) . '/index.php' ) ) ) {
  return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = ABSPATH . 'index.php';
$_SERVER['PHP_SELF'] = '/index.php';
require ABSPATH . 'index.php';
`,
    );
    const cli = join(folder, 'cli.php');
    writeFileSync(
      cli,
      `<?php
define( 'ABSPATH', ${JSON.stringify(site + '/')} );
$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
if ( getenv( 'LOYALTY_WP_INSTALLING' ) ) {
  define( 'WP_INSTALLING', true );
  $db = new mysqli( 'localhost', 'root', '', '', 0, ${JSON.stringify(socket)} );
  $db->query( 'CREATE DATABASE IF NOT EXISTS wordpress' );
}
require ABSPATH . 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/admin.php';
if ( ! getenv( 'LOYALTY_WP_INSTALLING' ) ) {
  wp_set_current_user( 1 );
}
eval( stream_get_contents( STDIN ) );
`,
    );
    const php = (code: string, env: Record<string, string> = {}): string => {
      const run = spawnSync('php', [...PHP_SETTINGS, '-d', 'display_errors=stderr', cli], {
        input: code,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
      if (run.status !== 0 || run.stderr.trim())
        throw new Error(`PHP failed (${run.status}): ${run.stderr}${run.stdout}`);
      return run.stdout;
    };
    php(
      `require_once ABSPATH . 'wp-admin/includes/upgrade.php';
      wp_install( 'Harbor shop', ${JSON.stringify(USERS.administrator.login)}, 'admin@shop.test', false, '', ${JSON.stringify(USERS.administrator.password)} );`,
      { LOYALTY_WP_INSTALLING: '1' },
    );
    php(
      `foreach ( ${phpArray(Object.values(USERS).filter((user) => user.role !== 'administrator'))} as $user ) {
        $id = wp_insert_user( array( 'user_login' => $user['login'], 'user_pass' => $user['password'], 'user_email' => $user['login'] . '@shop.test', 'role' => $user['role'] ) );
        if ( is_wp_error( $id ) ) { throw new Exception( $id->get_error_message() ); }
      }
      update_option( 'permalink_structure', '' );
      switch_theme( 'twentytwentythree' );`,
    );

    const server = spawn('php', [...PHP_SETTINGS, '-S', `127.0.0.1:${port}`, '-t', site, router], {
      stdio: 'ignore',
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      detached: true,
    });
    children.push(server);
    groups.add(server);
    await waitUntil(
      () =>
        fetch(`${url}/wp-login.php`).then(
          (response) => response.ok,
          () => false,
        ),
      'WordPress answering',
    );
    let logRead = 0;
    return {
      url,
      folder,
      php,
      takeLog() {
        const text = readFileSync(log, 'utf8');
        const fresh = text.slice(logRead);
        logRead = text.length;
        return fresh;
      },
      disallowUnfilteredHtml(on) {
        const flag = join(site, 'disallow-unfiltered-html');
        if (on) writeFileSync(flag, '');
        else rmSync(flag, { force: true });
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A PHP array literal of JSON-safe values. */
export function phpArray(value: unknown): string {
  return `json_decode( ${phpString(JSON.stringify(value))}, true )`;
}

/** A PHP single-quoted string literal. */
export function phpString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
