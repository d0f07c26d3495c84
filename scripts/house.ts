/**
 * How the house is laid out, for a newcomer and for a review: files and lines per folder of `src/`,
 * the longest functions, the classes over 200 lines and the import circles. `npm run house`.
 *
 * Functions are found with the TypeScript compiler's parser (declarations, methods, accessors,
 * constructors, arrow functions and function expressions with a body); a function's lines run from
 * its first line to its last, nested functions included. The import graph has one arrow per file that
 * a file names in `import`, `import type`, `export … from` or `import()`, so a circle made only of
 * type imports counts too: it still ties the two files together for a reader.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(process.argv.find((arg, index) => index > 1 && !arg.startsWith('-')) ?? 'src');
const LONGEST = 10;
const FUNCTION_LINES = 60;
const CLASS_LINES = 200;

interface SourceInfo {
  path: string;
  lines: number;
  imports: string[];
  functions: { name: string; lines: number; line: number }[];
  classes: { name: string; lines: number; line: number }[];
}

function listFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return listFiles(path);
      return /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The file a relative specifier names, as TypeScript's bundler resolution finds it. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, join(base, 'index.ts')];
  return candidates.find((candidate) => files.has(candidate));
}

function lineOf(source: ts.SourceFile, position: number): number {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (
    named.name &&
    (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name) || ts.isStringLiteral(named.name))
  ) {
    return named.name.text;
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return nameOf(parent);
  }
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  }
  return '(anonymous)';
}

function readSource(path: string, files: ReadonlySet<string>): SourceInfo {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const info: SourceInfo = {
    path,
    lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
    imports: [],
    functions: [],
    classes: [],
  };
  const addImport = (specifier: ts.Expression | undefined) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const target = resolveImport(path, specifier.text, files);
    if (target && !info.imports.includes(target)) info.imports.push(target);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) addImport(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      addImport(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      addImport(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      addImport(node.argument.literal);
    }
    const start = lineOf(source, node.getStart(source));
    const lines = lineOf(source, node.getEnd()) - start + 1;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      info.functions.push({ name: nameOf(node), lines, line: start });
    } else if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      info.classes.push({ name: nameOf(node), lines, line: start });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return info;
}

/** Tarjan's strongly connected components: every group of files that reach each other by imports. */
function importCircles(sources: readonly SourceInfo[]): string[][] {
  const byPath = new Map(sources.map((source) => [source.path, source]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const connect = (path: string) => {
    index.set(path, counter);
    low.set(path, counter);
    counter += 1;
    stack.push(path);
    onStack.add(path);
    for (const target of byPath.get(path)?.imports ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(path, Math.min(low.get(path)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(path, Math.min(low.get(path)!, index.get(target)!));
      }
    }
    if (low.get(path) !== index.get(path)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== path);
    const selfImport = byPath.get(path)?.imports.includes(path) ?? false;
    if (component.length > 1 || selfImport) circles.push(component.sort());
  };
  for (const source of sources) if (!index.has(source.path)) connect(source.path);
  return circles;
}

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

const paths = listFiles(ROOT);
const fileSet = new Set(paths);
const sources = paths.map((path) => readSource(path, fileSet));
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

const circles = importCircles(sources);
console.log(`\nImport circles (type-only imports included)\n`);
console.log(circles.length ? circles.map((circle) => circle.map(show).join(' <-> ')).join('\n') : 'none');
