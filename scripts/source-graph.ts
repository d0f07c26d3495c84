/**
 * The source files of a tree as the house report and the layer check read them: lines, functions and
 * classes measured with the TypeScript compiler's parser, and one import arrow per file that a file
 * names in `import`, `import type`, `export … from` or `import()` (a type-only arrow still ties two
 * files together for a reader).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export interface SourceInfo {
  path: string;
  lines: number;
  imports: string[];
  functions: { name: string; lines: number; line: number }[];
  classes: { name: string; lines: number; line: number }[];
}

export function listFiles(folder: string): string[] {
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

export function readSource(path: string, files: ReadonlySet<string>): SourceInfo {
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

/**
 * Tarjan's strongly connected components: every group of nodes that reach each other by arrows, and
 * a node with an arrow to itself.
 */
export function stronglyConnected(nodes: readonly string[], arrowsOf: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of arrowsOf(node)) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || arrowsOf(node).includes(node)) components.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components;
}

/** Every source file under `root`, read. */
export function readSources(root: string): SourceInfo[] {
  const paths = listFiles(root);
  const files = new Set(paths);
  return paths.map((path) => readSource(path, files));
}
