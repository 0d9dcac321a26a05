/**
 * The layout's size rules (issue 20), read from the sources with the TypeScript compiler API:
 *
 * - every source file under src/ (tests and test helpers aside) is at most MAX_FILE_LINES long;
 * - no function is longer than MAX_FUNCTION_LINES in src/shell/, src/core/, src/adapters/ and
 *   the hook path of src/cli/, except the lexer's and parser's dispatch functions, each named in
 *   EXCEPTIONS (a switch over every token or construct reads best whole).
 *
 * The hook path is computed, not listed: src/cli/main.ts and the driver it loads in hook mode
 * (`import('./driver.ts')`), then every module they import statically, transitively (type-only
 * imports load no code and are not followed; dynamic imports are, except main.ts's command table,
 * which loads the other commands).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(new URL(import.meta.url).pathname);
const MAX_FILE_LINES = 1000;
const MAX_FUNCTION_LINES = 80;
/** Folders whose every function is held to MAX_FUNCTION_LINES (the hook path of cli/ too). */
const FUNCTION_FOLDERS = ['shell/', 'core/', 'adapters/'];
/**
 * The only functions allowed past MAX_FUNCTION_LINES, as `file name` (methods as `Class.method`):
 * the lexer's and parser's dispatch functions, and only those (a test holds the list to the two
 * files). Today every one of them is within the limit (the longest: Lexer.readWord, 70 lines;
 * Parser.parseFor, 61), so the list is empty; one that grows past it is named here.
 */
const EXCEPTIONS: ReadonlySet<string> = new Set<string>([]);
/** The files whose dispatch functions may be exceptions. */
const DISPATCH_FILES: ReadonlySet<string> = new Set(['shell/lexer.ts', 'shell/parser.ts']);
/** The hook's entry and the module main.ts loads for it. */
const HOOK_ROOTS = ['cli/main.ts', 'cli/driver.ts'];

const isTest = (rel: string): boolean => /(^|[./])(test|testing)\.ts$/.test(rel) || /(^|\/)testdata\//.test(rel);

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : walk(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const parse = (rel: string, text: string): ts.SourceFile => ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** Lines of a file as an editor counts them (a final newline ends the last line). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

function nameOf(node: ts.Node): string {
  const own = (n: ts.Node): string | undefined => {
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    const name = (n as { name?: ts.Node }).name;
    return name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) ? name.text : undefined;
  };
  let name = own(node);
  // `const f = () => …`, `{ f: function () … }`: the name it is given.
  if (name === undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node))) {
    const p = node.parent;
    if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) name = own(p);
  }
  if (name === undefined) return '<anonymous>';
  const cls = node.parent;
  if ((ts.isClassDeclaration(cls) || ts.isClassExpression(cls)) && cls.name !== undefined) return `${cls.name.text}.${name}`;
  return name;
}

/** Every function of a source file longer than `max` lines (its body included, comments before it not). */
export function longFunctions(rel: string, text: string, max = MAX_FUNCTION_LINES): Array<{ name: string; lines: number }> {
  const sf = parse(rel, text);
  const out: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body !== undefined) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) out.push({ name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The modules a file loads: relative static value imports and re-exports, and `import()`s. */
export function loadedModules(rel: string, text: string, dynamic: boolean): string[] {
  const sf = parse(rel, text);
  const out: string[] = [];
  const add = (spec: ts.Expression | undefined): void => {
    if (spec !== undefined && ts.isStringLiteral(spec) && spec.text.startsWith('.')) out.push(path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec.text)));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly !== true) add(node.moduleSpecifier);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly) add(node.moduleSpecifier);
    else if (dynamic && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The files the hook loads, from its roots, through `read` (a path relative to src/ → its text). */
export function hookPath(roots: readonly string[], read: (rel: string) => string | null): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length > 0) {
    const rel = todo.pop() as string;
    if (seen.has(rel)) continue;
    const text = read(rel);
    if (text === null) continue;
    seen.add(rel);
    // main.ts's `import()`s are the command table: only the driver (a root) is the hook's.
    todo.push(...loadedModules(rel, text, rel !== 'cli/main.ts'));
  }
  return seen;
}

describe('structure: file and function sizes', () => {
  const files = walk(SRC)
    .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
    .filter((rel) => !isTest(rel));
  const read = (rel: string): string | null => (fs.existsSync(path.join(SRC, rel)) ? fs.readFileSync(path.join(SRC, rel), 'utf8') : null);
  const hook = hookPath(HOOK_ROOTS, read);

  it('finds the sources and the hook path', () => {
    expect(files).toContain('shell/analyze.ts');
    expect(hook).toContain('cli/driver.ts');
    expect(hook).toContain('shell/analyze.ts');
    // Commands the hook never runs are not on its path.
    expect(hook).not.toContain('cli/check.ts');
  });

  it(`every source file is at most ${MAX_FILE_LINES} lines`, () => {
    const over = files.map((rel) => ({ rel, lines: lineCount(read(rel) ?? '') })).filter((f) => f.lines > MAX_FILE_LINES);
    expect(over.map((f) => `${f.rel}: ${f.lines} lines`)).toEqual([]);
  });

  it('the walk of the shell analysis stays small (src/shell/analyze.ts at most 700 lines)', () => {
    expect(lineCount(read('shell/analyze.ts') ?? '')).toBeLessThanOrEqual(700);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines in shell/, core/, adapters/ and the hook path of cli/`, () => {
    const checked = files.filter((rel) => FUNCTION_FOLDERS.some((f) => rel.startsWith(f)) || (rel.startsWith('cli/') && hook.has(rel)));
    const over = checked.flatMap((rel) => longFunctions(rel, read(rel) ?? '').map((f) => ({ key: `${rel} ${f.name}`, lines: f.lines })));
    expect(over.filter((f) => !EXCEPTIONS.has(f.key)).map((f) => `${f.key}: ${f.lines} lines`)).toEqual([]);
  });

  it("exceptions name only the lexer's and parser's functions", () => {
    expect([...EXCEPTIONS].filter((k) => !DISPATCH_FILES.has(k.split(' ')[0] as string))).toEqual([]);
  });

  it('every exception is still needed (an exception for a short or gone function is dropped)', () => {
    const found = new Set(
      [...EXCEPTIONS].flatMap((key) => {
        const rel = key.split(' ')[0] as string;
        return longFunctions(rel, read(rel) ?? '').map((f) => `${rel} ${f.name}`);
      }),
    );
    expect([...EXCEPTIONS].filter((k) => !found.has(k))).toEqual([]);
  });

  describe('the checks themselves', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
    it.each<[string, string, string[]]>([
      ['a function of 81 lines', `function long() {\n  let x = 0;\n${body(78)}\n}\n`, ['long']],
      ['a function of 80 lines', `function fits() {\n  let x = 0;\n${body(77)}\n}\n`, []],
      ['a method, named with its class', `class K {\n  m() {\n    let x = 0;\n${body(79)}\n  }\n}\n`, ['K.m']],
      ['an arrow function, named by its variable', `const f = () => {\n  let x = 0;\n${body(80)}\n};\n`, ['f']],
      ['a nested function and the one holding it', `function outer() {\n  function inner() {\n    let x = 0;\n${body(80)}\n  }\n}\n`, ['outer', 'inner']],
      ['comments before a function do not count', `${'// c\n'.repeat(30)}function g() {\n  let x = 0;\n${body(60)}\n}\n`, []],
    ])('%s', (_what, text, names) => {
      expect(longFunctions('x.ts', text).map((f) => f.name)).toEqual(names);
    });

    it.each<[string, number]>([
      ['', 0],
      ['a\n', 1],
      ['a\nb', 2],
      ['a\n\nb\n', 3],
    ])('lineCount(%j) = %d', (text, n) => {
      expect(lineCount(text)).toBe(n);
    });

    it('follows static and dynamic value imports, not type-only ones nor main.ts command table', () => {
      const texts: Record<string, string> = {
        'cli/main.ts': "import { io } from './io.ts';\nconst c = () => import('./check.ts');",
        'cli/driver.ts': "import type { T } from './types.ts';\nimport { a } from '../core/a.ts';\nexport { b } from './b.ts';\nconst l = () => import('./lazy.ts');",
        'cli/io.ts': '',
        'cli/check.ts': '',
        'cli/types.ts': '',
        'cli/b.ts': '',
        'cli/lazy.ts': '',
        'core/a.ts': "import { type X, y } from './y.ts';",
        'core/y.ts': '',
      };
      const got = hookPath(HOOK_ROOTS, (rel) => texts[rel] ?? null);
      expect([...got].sort()).toEqual(['cli/b.ts', 'cli/driver.ts', 'cli/io.ts', 'cli/lazy.ts', 'cli/main.ts', 'core/a.ts', 'core/y.ts']);
    });
  });
});
