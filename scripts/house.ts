/**
 * How the house is laid out, for a newcomer and for a review: files and lines per folder of `src/`,
 * the longest functions, the classes over 200 lines, the import circles and the layers' figures
 * (arrows between folders, upward ones, circles between folders). `npm run house`.
 *
 * Functions are found with the TypeScript compiler's parser (declarations, methods, accessors,
 * constructors, arrow functions and function expressions with a body); a function's lines run from
 * its first line to its last, nested functions included. Imports are read as `source-graph.ts` reads them,
 * so a circle made only of type imports counts too.
 */
import { dirname, relative, resolve } from 'node:path';
import { describeLayers, layerReport } from './layers.ts';
import { readSources, stronglyConnected } from './source-graph.ts';

const ROOT = resolve(process.argv.find((arg, index) => index > 1 && !arg.startsWith('-')) ?? 'src');
const LONGEST = 10;
const FUNCTION_LINES = 60;
const CLASS_LINES = 200;

function table(rows: readonly (readonly (string | number)[])[], rightAligned: readonly number[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          rightAligned.includes(column) ? String(cell).padStart(widths[column]!) : String(cell).padEnd(widths[column]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const sources = readSources(ROOT);
const show = (path: string) => relative(dirname(ROOT), path);

// Files and lines per folder: its own files, and its whole subtree.
const folders = new Map<string, { files: number; lines: number; allFiles: number; allLines: number; arrows: number }>();
for (const source of sources) {
  const own = dirname(source.path);
  for (let folder = own; folder.startsWith(ROOT); folder = dirname(folder)) {
    const entry = folders.get(folder) ?? { files: 0, lines: 0, allFiles: 0, allLines: 0, arrows: 0 };
    if (folder === own) {
      entry.files += 1;
      entry.lines += source.lines;
    }
    entry.allFiles += 1;
    entry.allLines += source.lines;
    // Arrows between two files that both lie under this folder.
    entry.arrows += source.imports.filter((target) => target.startsWith(`${folder}/`)).length;
    folders.set(folder, entry);
    if (folder === ROOT) break;
  }
}
console.log(`Files and lines per folder of ${show(ROOT)} (own files; with subfolders; import arrows inside)\n`);
console.log(
  table(
    [
      ['folder', 'files', 'lines', 'files (all)', 'lines (all)', 'arrows'],
      ...[...folders.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([folder, entry]) => [
          `${show(folder)}/`,
          entry.files,
          entry.lines,
          entry.allFiles,
          entry.allLines,
          entry.arrows,
        ]),
    ],
    [1, 2, 3, 4, 5],
  ),
);

const functions = sources
  .flatMap((source) => source.functions.map((fn) => ({ ...fn, path: source.path })))
  .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
console.log(`\nThe ${LONGEST} longest functions\n`);
console.log(
  table(
    [
      ['lines', 'function', 'where'],
      ...functions.slice(0, LONGEST).map((fn) => [fn.lines, fn.name, `${show(fn.path)}:${fn.line}`]),
    ],
    [0],
  ),
);

const long = functions.slice(LONGEST).filter((fn) => fn.lines > FUNCTION_LINES);
console.log(`\nThe other functions over ${FUNCTION_LINES} lines\n`);
console.log(
  long.length
    ? table(
        [['lines', 'function', 'where'], ...long.map((fn) => [fn.lines, fn.name, `${show(fn.path)}:${fn.line}`])],
        [0],
      )
    : 'none',
);

const classes = sources
  .flatMap((source) => source.classes.map((cls) => ({ ...cls, path: source.path })))
  .filter((cls) => cls.lines > CLASS_LINES)
  .sort((a, b) => b.lines - a.lines);
console.log(`\nClasses over ${CLASS_LINES} lines\n`);
console.log(
  classes.length
    ? table(
        [['lines', 'class', 'where'], ...classes.map((cls) => [cls.lines, cls.name, `${show(cls.path)}:${cls.line}`])],
        [0],
      )
    : 'none',
);

const importsOf = new Map(sources.map((source) => [source.path, source.imports]));
const circles = stronglyConnected([...importsOf.keys()], (path) => importsOf.get(path) ?? []);
console.log(`\nImport circles (type-only imports included)\n`);
console.log(circles.length ? circles.map((circle) => circle.map(show).join(' <-> ')).join('\n') : 'none');

console.log(`\nLayers (scripts/layers.ts; between folders, type-only imports included)\n`);
console.log(describeLayers(layerReport(sources, ROOT)).text);
