/**
 * The layers of `src/`, and the check that keeps them (`tsx scripts/layers.ts`, early in `npm test`):
 * it fails on an import that runs up (or across to a part no layer below allows) and on a circle
 * between folders, and names each one. `npm run house` prints the same figures.
 *
 * Each layer names the folders it holds and the layers right below it; a folder may import its own
 * layer's folders and everything below, transitively. `x/*` makes each subfolder of `x` a folder of
 * its own (so the elements are checked against each other); `x/**` counts the whole subtree as one.
 * A folder no layer names fails the check: a new folder is placed on purpose.
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSources, stronglyConnected, type SourceInfo } from './source-graph.ts';

export interface Layer {
  name: string;
  /** Folders relative to `src/`; `.` is `src/` itself (its own files only). */
  folders: readonly string[];
  /** The layers right below this one: it may import them and whatever they may import. */
  below: readonly string[];
}

/** Bottom to top. Browser code and server code meet only in `shared` and the two browser clients. */
export const LAYERS: readonly Layer[] = [
  // The built-in languages' strings, with their type: data the shared helpers load on demand.
  { name: 'locales', folders: ['locales'], below: [] },
  { name: 'shared', folders: ['shared'], below: ['locales'] },
  { name: 'clients', folders: ['connect', 'marketing'], below: ['shared'] },
  { name: 'element machinery', folders: ['elements/internal'], below: ['clients'] },
  { name: 'elements', folders: ['elements/*'], below: ['element machinery'] },
  // src/*.ts: the script-tag entry and the files it loads on demand.
  { name: 'script tag', folders: ['.'], below: ['elements'] },

  { name: 'proxy: shared', folders: ['proxy/shared'], below: ['shared'] },
  { name: 'proxy: stores', folders: ['proxy/stores'], below: ['proxy: shared'] },
  { name: 'proxy: upstream', folders: ['proxy/upstream'], below: ['proxy: stores'] },
  // Verifying a shopper's tokens reuses the browser client's ID-token checks.
  { name: 'proxy: shopper', folders: ['proxy/shopper'], below: ['proxy: upstream', 'clients'] },
  { name: 'proxy: http stages', folders: ['proxy/http'], below: ['proxy: shopper'] },
  { name: 'proxy: app', folders: ['proxy/app'], below: ['proxy: http stages'] },
  // The first page printed by a server: the browser client's view models, the proxy's options.
  { name: 'proxy: render', folders: ['proxy/render'], below: ['proxy: app'] },
  { name: 'proxy: hosts', folders: ['proxy/hosts'], below: ['proxy: app'] },
  // src/proxy/*.ts: the package's entry points.
  { name: 'proxy: entries', folders: ['proxy'], below: ['proxy: hosts', 'proxy: render'] },

  // The local services, one part: only the proxy's peer-package loader is shared with the proxy.
  { name: 'sandbox', folders: ['sandbox/**'], below: ['proxy: shared'] },
];

export interface Arrow {
  from: string;
  to: string;
  /** The file-to-file imports behind it, as `from.ts -> to.ts`, relative to the root. */
  imports: string[];
}

export interface LayerReport {
  /** Arrows between two different folders, one per pair. */
  arrows: Arrow[];
  /** Arrows to a layer above the importer's. */
  upward: Arrow[];
  /** Arrows to a layer neither below nor beside the importer's. */
  across: Arrow[];
  /** Groups of folders that import each other, through any number of steps. */
  circles: string[][];
  /** Folders holding source files that no layer names. */
  unplaced: string[];
}

function layerOf(folder: string, layers: readonly Layer[]): { layer: Layer; node: string } | undefined {
  for (const layer of layers) if (layer.folders.includes(folder)) return { layer, node: folder };
  for (const layer of layers) {
    for (const pattern of layer.folders) {
      if (!pattern.endsWith('/*')) continue;
      const parent = pattern.slice(0, -2);
      if (dirname(folder) === parent) return { layer, node: folder };
    }
  }
  for (const layer of layers) {
    for (const pattern of layer.folders) {
      if (!pattern.endsWith('/**')) continue;
      const parent = pattern.slice(0, -3);
      if (folder === parent || folder.startsWith(`${parent}/`)) return { layer, node: parent };
    }
  }
  return undefined;
}

/** Each layer's name with the names of every layer it may import, itself included. */
function reachable(layers: readonly Layer[]): Map<string, Set<string>> {
  const byName = new Map(layers.map((layer) => [layer.name, layer]));
  const result = new Map<string, Set<string>>();
  const visit = (name: string, seen: Set<string>) => {
    if (seen.has(name)) return;
    const layer = byName.get(name);
    if (!layer) throw new Error(`No layer is named "${name}".`);
    seen.add(name);
    for (const below of layer.below) visit(below, seen);
  };
  for (const layer of layers) {
    const seen = new Set<string>();
    visit(layer.name, seen);
    result.set(layer.name, seen);
  }
  return result;
}

export function layerReport(sources: readonly SourceInfo[], root: string, layers = LAYERS): LayerReport {
  const allowed = reachable(layers);
  const folderOf = (path: string) => relative(root, dirname(path)) || '.';
  const unplaced = new Set<string>();
  const place = (path: string) => {
    const placed = layerOf(folderOf(path), layers);
    if (!placed) unplaced.add(folderOf(path));
    return placed;
  };
  const arrows = new Map<string, Arrow & { fromLayer: string; toLayer: string }>();
  for (const source of sources) {
    const from = place(source.path);
    for (const target of source.imports) {
      const to = place(target);
      if (!from || !to || from.node === to.node) continue;
      const key = `${from.node}\n${to.node}`;
      const arrow = arrows.get(key) ?? {
        from: from.node,
        to: to.node,
        imports: [],
        fromLayer: from.layer.name,
        toLayer: to.layer.name,
      };
      arrow.imports.push(`${relative(root, source.path)} -> ${relative(root, target)}`);
      arrows.set(key, arrow);
    }
  }
  const all = [...arrows.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  const refused = all.filter((arrow) => !allowed.get(arrow.fromLayer)!.has(arrow.toLayer));
  const nodes = [...new Set(all.flatMap((arrow) => [arrow.from, arrow.to]))].sort();
  const circles = stronglyConnected(nodes, (node) =>
    all.filter((arrow) => arrow.from === node).map((arrow) => arrow.to),
  );
  const plain = ({ from, to, imports }: Arrow): Arrow => ({ from, to, imports });
  return {
    arrows: all.map(plain),
    upward: refused.filter((arrow) => allowed.get(arrow.toLayer)!.has(arrow.fromLayer)).map(plain),
    across: refused.filter((arrow) => !allowed.get(arrow.toLayer)!.has(arrow.fromLayer)).map(plain),
    circles,
    unplaced: [...unplaced].sort(),
  };
}

/** The report as text; `failed` when any import breaks the layers. */
export function describeLayers(report: LayerReport): { text: string; failed: boolean } {
  const listArrows = (arrows: readonly Arrow[]) =>
    arrows.length
      ? arrows.map((arrow) => `${arrow.from} -> ${arrow.to}\n${arrow.imports.map((line) => `  ${line}`).join('\n')}`)
      : ['none'];
  const lines = [
    `Arrows between folders: ${report.arrows.length} (${report.arrows.reduce((sum, arrow) => sum + arrow.imports.length, 0)} imports)`,
    `Upward arrows: ${report.upward.length}`,
    `Arrows across to a part not below: ${report.across.length}`,
    `Circles between folders: ${report.circles.length}`,
    '',
    'Upward arrows',
    ...listArrows(report.upward),
    '',
    'Arrows across to a part not below',
    ...listArrows(report.across),
    '',
    'Circles between folders',
    ...(report.circles.length ? report.circles.map((circle) => circle.join(' <-> ')) : ['none']),
  ];
  if (report.unplaced.length) {
    lines.push('', 'Folders no layer names (scripts/layers.ts)', ...report.unplaced);
  }
  const failed = report.upward.length + report.across.length + report.circles.length + report.unplaced.length > 0;
  return { text: lines.join('\n'), failed };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv.find((arg, index) => index > 1 && !arg.startsWith('-')) ?? 'src');
  const { text, failed } = describeLayers(layerReport(readSources(root), root));
  console.log(text);
  if (failed) {
    console.error('\nThe layers of src/ are broken: each import above must point down (scripts/layers.ts).');
    process.exitCode = 1;
  }
}
