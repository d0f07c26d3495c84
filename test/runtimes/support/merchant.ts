/**
 * The package as a merchant installs it: `npm pack`'s tarball, unpacked into a project folder outside
 * the repository (so that no resolver can climb into the repository's node_modules), with exactly
 * the packages npm would place beside it: the tarball's own dependencies and the host's packages
 * (Next.js and React, the Node adapter's peers), never an optional peer the merchant did not name.
 * Those packages are hard-linked (or copied) from the repository's node_modules, which `npm ci`
 * installed from the lock: no download, and the same versions a registry install would pick.
 * `LOYALTY_TARBALL=file.tgz` checks a tarball packed elsewhere (e.g. from an older commit).
 */
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packedFilename } from '../../../scripts/npm-pack.ts';

const exec = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '../../..');

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = async (folder: string) =>
  JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The folder of package `name` as Node resolves it from `from` (a folder inside the repository), or undefined. */
async function installedFolder(name: string, from: string): Promise<string | undefined> {
  for (let folder = from; folder.startsWith(ROOT); folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (await exists(join(candidate, 'package.json'))) return candidate;
    if (folder === ROOT) break;
  }
  return undefined;
}

/** The package folders in a package's own node_modules, at any depth. */
async function nestedPackages(folder: string): Promise<string[]> {
  const modules = join(folder, 'node_modules');
  const names = await readdir(modules).catch(() => []);
  const found: string[] = [];
  for (const name of names.filter((entry) => !entry.startsWith('.'))) {
    const scoped = name.startsWith('@')
      ? (await readdir(join(modules, name))).map((entry) => `${name}/${entry}`)
      : [name];
    for (const packageName of scoped) {
      const nested = join(modules, packageName);
      if (!(await exists(join(nested, 'package.json')))) continue;
      found.push(nested, ...(await nestedPackages(nested)));
    }
  }
  return found;
}

/** The tarball under test: LOYALTY_TARBALL, or a fresh `npm pack` of the built repository (into `into`). */
export async function packedTarball(into: string): Promise<string> {
  if (process.env.LOYALTY_TARBALL) return resolve(process.env.LOYALTY_TARBALL);
  if (!(await exists(join(ROOT, 'dist/server/proxy/index.js'))))
    throw new Error('dist/ is not built: run `npm run build` first (npm run test:runtimes does).');
  const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {
    cwd: ROOT,
  });
  return join(into, packedFilename(stdout));
}

export interface MerchantProject {
  dir: string;
  /** The packages installed beside loyalty-widgets, by name, each once. */
  installed: string[];
  remove(): Promise<void>;
}

/**
 * A project folder in the system's temporary folder with `loyalty-widgets` installed from `tarball`
 * and `hostPackages` beside it (each with its dependency tree, laid out as in the repository).
 */
export async function installMerchant(tarball: string, hostPackages: string[] = []): Promise<MerchantProject> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-merchant-'));
  const ours = join(dir, 'node_modules', 'loyalty-widgets');
  await mkdir(ours, { recursive: true });
  await exec('tar', ['-xzf', tarball, '-C', ours, '--strip-components=1']);
  const manifest = await readManifest(ours);
  const dependencies: Record<string, string> = { 'loyalty-widgets': `file:${tarball}` };
  const installed = new Set<string>();

  /** Places the package resolved from `from` (and what it needs) at the same path under `dir`. */
  const place = async (name: string, from: string, optional: boolean): Promise<void> => {
    const source = await installedFolder(name, from);
    if (!source) {
      if (optional) return;
      throw new Error(`${name} (needed from ${relative(ROOT, from) || '.'}) is not installed in the repository`);
    }
    const target = join(dir, relative(ROOT, source));
    if (await exists(target)) return;
    await mkdir(dirname(target), { recursive: true });
    // Hard links where the file system allows them (fast, no space), a copy elsewhere.
    await exec('cp', ['-al', source, target]).catch(() => exec('cp', ['-a', source, target]));
    installed.add(name);
    // Its nested node_modules came with it; what they and it need from higher up is placed too.
    for (const folder of [source, ...(await nestedPackages(source))])
      await placeAll(await readManifest(folder), folder);
  };
  const placeAll = async (needs: Manifest, from: string): Promise<void> => {
    for (const name of Object.keys(needs.dependencies ?? {})) await place(name, from, false);
    for (const name of Object.keys(needs.optionalDependencies ?? {})) await place(name, from, true);
    // npm installs peers that are not optional; optional ones only when the project names them.
    for (const name of Object.keys(needs.peerDependencies ?? {}))
      if (!needs.peerDependenciesMeta?.[name]?.optional) await place(name, from, false);
  };
  await placeAll({ ...manifest, dependencies: manifest.dependencies ?? {} }, ROOT);
  for (const name of hostPackages) {
    await place(name, ROOT, false);
    dependencies[name] = (await readManifest(join(dir, 'node_modules', name))).version;
  }
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'merchant-shop', private: true, type: 'module', dependencies }, null, 2)}\n`,
  );

  // The point of the folder: an optional peer the merchant did not install resolves from nowhere.
  const resolveFromPackage = createRequire(join(ours, 'package.json'));
  for (const [peer, meta] of Object.entries(manifest.peerDependenciesMeta ?? {})) {
    if (!meta.optional || hostPackages.includes(peer)) continue;
    let found: string | undefined;
    try {
      found = resolveFromPackage.resolve(peer);
    } catch {
      found = undefined;
    }
    if (found) throw new Error(`the optional peer ${peer} resolves from the merchant's project (${found})`);
  }
  return {
    dir,
    installed: [...installed].sort(),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
