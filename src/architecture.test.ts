/**
 * The import direction of style.md, for every file under src/:
 *
 *     grammars  →  shell  →  core  →  packs, adapters, audit  →  installers  →  cli
 *
 * (grammars holds program knowledge as data and the one reader; the shell analysis reads
 * programs with it to find what they run), plus three leaves anything with I/O may use: paths.ts
 * (the one resolver), harnesses/ (one data record per harness, pure; paths.ts reads it) and
 * files/ (the one atomic write, the one lock file, the lazy require of js-yaml and smol-toml;
 * the lock alone may ask `process` for its pid and whether a pid is alive).
 *
 * Imports are read with regular expressions (static, dynamic, re-exports, require). The core and
 * what it builds on stay pure: no Node modules, no packages, no process, no clock, no randomness.
 * Only src/cli touches `process`; only packs/runtime.ts and the pack sources it reads through
 * (packs/sources.ts: builtin, user, bundle) read pack files from disk. And no import cycle
 * anywhere under src/, every kind of import counted (importCycles, with a test that it finds one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(new URL(import.meta.url).pathname);

type Layer = 'shell' | 'grammars' | 'core' | 'packs' | 'adapters' | 'audit' | 'installers' | 'cli' | 'paths' | 'harnesses' | 'files';

/** What each folder may import from src/ (its own folder always). `*`: anything. */
const MAY_IMPORT: Record<Layer, readonly Layer[] | '*'> = {
  shell: ['grammars'],
  grammars: [],
  core: ['shell', 'grammars'],
  packs: ['core', 'grammars', 'paths', 'harnesses', 'files'],
  adapters: ['core', 'harnesses'],
  audit: ['core', 'paths', 'harnesses', 'files'],
  installers: ['adapters', 'core', 'paths', 'harnesses', 'files'],
  cli: '*',
  paths: ['harnesses'],
  harnesses: [],
  files: [],
};

/**
 * Outside src/cli, the only uses of `process`: the lock's own pid, its liveness probe, and
 * node:os loaded when a lock is taken (`getBuiltinModule`: an import, made lazy for the hook).
 */
const PROCESS_ALLOWED: Partial<Record<Layer, RegExp>> = { files: /\bprocess\s*\.\s*(?:pid\b|kill\s*\(|getBuiltinModule\s*\(\s*'node:os'\s*\))/g };

/** Node modules that reach outside the process's own memory. */
const IO_MODULES = new Set([
  'fs', 'fs/promises', 'child_process', 'os', 'process', 'net', 'http', 'https', 'http2', 'dgram',
  'cluster', 'worker_threads', 'tty', 'readline', 'inspector', 'dns', 'tls', 'module', 'v8', 'vm',
]);

/** Folders that must stay pure: no Node modules or packages at all, no process, clock or randomness. */
const PURE: ReadonlySet<Layer> = new Set(['shell', 'grammars', 'core', 'harnesses']);
/** Folders that may not do I/O through Node modules (they translate data). */
const NO_IO: ReadonlySet<Layer> = new Set(['adapters']);
/** Packages a non-test file of a folder may import. */
// installers: smol-toml checks each edit of Codex's config.toml (installers/codex/toml-state.ts).
const PACKAGES: Partial<Record<Layer, readonly string[]>> = { packs: ['js-yaml', 'smol-toml'], installers: ['smol-toml'] };
/** The only packs files allowed Node I/O modules, and which. */
const PACKS_IO: Record<string, readonly string[]> = {
  'packs/runtime.ts': ['fs'],
  'packs/sources.ts': ['fs'],
  // The project pack source (docs/project-rules.md): its listing on the hook path, its loader.
  'packs/project-rules.ts': ['fs'],
  'packs/project-load.ts': ['fs'],
};

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : walk(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

export function importsOf(text: string): string[] {
  const code = stripComments(text);
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /(?<![-\w])import\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1]!);
  return out;
}

function layerOf(rel: string): Layer | null {
  if (rel === 'paths.ts') return 'paths';
  const top = rel.split('/')[0]!;
  return top in MAY_IMPORT ? (top as Layer) : null;
}

/** Tests and test-only helpers (`x.test.ts`, `x.testing.ts`, `testing.ts`, anything under `testdata/`). */
const isTest = (rel: string): boolean => /(^|[./])(test|testing)\.ts$/.test(rel) || /(^|\/)testdata\//.test(rel);

function problemsOf(rel: string, text: string): string[] {
  const layer = layerOf(rel);
  if (layer === null) return isTest(rel) || rel === 'architecture.test.ts' ? [] : [`${rel}: file outside the known folders`];
  const out: string[] = [];
  const code = stripComments(text);
  for (const spec of importsOf(text)) {
    if (spec.startsWith('.')) {
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(rel), spec));
      const to = layerOf(target);
      if (to === null || target.startsWith('..')) {
        // Test-only helpers at the top of src/ (test-home.testing.ts) belong to no layer: tests may use them.
        if (!(to === null && !target.startsWith('..') && isTest(rel) && isTest(target))) out.push(`${rel}: imports ${spec}, outside src/`);
        continue;
      }
      if (isTest(rel)) {
        // Tests may reach further, but the core's tests stay harness- and CLI-free (seed rule).
        if (layer === 'core' && !['core', 'shell', 'grammars'].includes(to)) out.push(`${rel}: core test imports ${to} (${spec})`);
        continue;
      }
      const may = MAY_IMPORT[layer];
      if (to !== layer && may !== '*' && !may.includes(to)) out.push(`${rel}: ${layer} may not import ${to} (${spec})`);
      continue;
    }
    if (isTest(rel)) continue;
    const node = spec.startsWith('node:') ? spec.slice(5) : null;
    if (node !== null) {
      if (PURE.has(layer)) out.push(`${rel}: ${layer} must stay pure, imports ${spec}`);
      else if (NO_IO.has(layer) && IO_MODULES.has(node)) out.push(`${rel}: ${layer} may not do I/O, imports ${spec}`);
      else if (layer === 'packs' && IO_MODULES.has(node) && !(PACKS_IO[rel] ?? []).includes(node)) {
        out.push(`${rel}: only packs/runtime.ts and the pack sources (sources.ts, project-rules.ts, project-load.ts) read from disk, imports ${spec}`);
      }
      continue;
    }
    const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    if (layer !== 'cli' && !(PACKAGES[layer] ?? []).includes(pkg)) out.push(`${rel}: ${layer} may not import the package ${pkg}`);
  }
  if (!isTest(rel)) {
    const allowed = PROCESS_ALLOWED[layer];
    const rest = allowed === undefined ? code : code.replace(allowed, '');
    if (layer !== 'cli' && /\bprocess\s*\.|\bprocess\s*\[|globalThis\s*\.\s*process\b/.test(rest)) out.push(`${rel}: only src/cli touches process`);
    if (PURE.has(layer) && /\bDate\s*\.\s*now\b|\bnew\s+Date\b|\bperformance\s*\.\s*now\b|\bMath\s*\.\s*random\b/.test(code)) {
      out.push(`${rel}: ${layer} must not read the clock or use randomness`);
    }
  }
  return out;
}

/**
 * The import cycles of a graph (file → the files it imports): each strongly connected set of
 * two or more files, or a file importing itself, sorted (Tarjan's algorithm, iterative).
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const scc: string[] = [];
      let n: string;
      do {
        n = stack.pop()!;
        onStack.delete(n);
        scc.push(n);
      } while (n !== top.node);
      if (scc.length > 1 || edges.includes(top.node)) cycles.push(scc.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The graph of src/'s files by their imports (paths relative to src/), tests included. Every
 * import is an edge (importsOf): static, type-only (`import type`, `typeof import('…')`: a cycle
 * through a type is still a cycle in the layout), dynamic `import()` and `require`.
 */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const rel of files) {
    const text = fs.readFileSync(path.join(SRC, rel), 'utf8');
    const to = importsOf(text)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.relative(SRC, path.resolve(SRC, path.dirname(rel), spec)).split(path.sep).join('/'));
    graph.set(rel, to);
  }
  return graph;
}

describe('architecture: no import cycle', () => {
  const files = walk(SRC).map((f) => path.relative(SRC, f).split(path.sep).join('/'));

  it('no file of src/ reaches itself through its imports (type-only and dynamic ones included)', () => {
    expect(importCycles(importGraph(files)).map((c) => c.join(' → '))).toEqual([]);
  });

  describe('the cycle check itself', () => {
    it.each<[string, Record<string, string[]>, string[][]]>([
      ['no cycle', { a: ['b', 'c'], b: ['c'], c: [] }, []],
      ['two files', { a: ['b'], b: ['a'] }, [['a', 'b']]],
      ['a file importing itself', { a: ['a'], b: ['a'] }, [['a']]],
      ['five files, as packs/ had', { cache: ['compiler'], compiler: ['project-load'], 'project-load': ['project-rules'], 'project-rules': ['sources'], sources: ['cache'], other: ['cache'] }, [['cache', 'compiler', 'project-load', 'project-rules', 'sources']]],
      ['two separate cycles', { a: ['b'], b: ['a'], c: ['d'], d: ['e'], e: ['c'], f: ['a', 'c'] }, [['a', 'b'], ['c', 'd', 'e']]],
      ['a diamond is no cycle', { a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }, []],
      ['an import of a file outside the graph', { a: ['x'], x2: [] }, []],
    ])('%s', (_what, graph, cycles) => {
      expect(importCycles(new Map(Object.entries(graph)))).toEqual(cycles);
    });

    it.each<[string, string[]]>([
      ["import { a } from './a.ts';", ['./a.ts']],
      ["import type { A } from './a.ts';", ['./a.ts']],
      ["export type { A } from './a.ts';", ['./a.ts']],
      ["export * from './a.ts';", ['./a.ts']],
      ["import './side.ts';", ['./side.ts']],
      ["type C = typeof import('./compiler.ts');", ['./compiler.ts']],
      ["const m = await import('./lazy.ts');", ['./lazy.ts']],
      ["// import { a } from './a.ts';", []],
    ])('an edge of the graph: %j', (text, specs) => {
      expect(importsOf(text)).toEqual(specs);
    });

    it('finds a cycle through a type-only and a dynamic import', () => {
      const graph = new Map([
        ['shell/a.ts', importsOf("import type { B } from './b.ts';").map((s) => `shell/${s.slice(2)}`)],
        ['shell/b.ts', importsOf("const { a } = await import('./a.ts');").map((s) => `shell/${s.slice(2)}`)],
      ]);
      expect(importCycles(graph)).toEqual([['shell/a.ts', 'shell/b.ts']]);
    });
  });
});

describe('architecture: import direction and purity', () => {
  const files = walk(SRC).map((f) => path.relative(SRC, f).split(path.sep).join('/'));

  it('finds the source tree', () => {
    expect(files).toContain('core/evaluate.ts');
    expect(files).toContain('cli/main.ts');
  });

  it('every file of src/ keeps the direction', () => {
    const problems = files.flatMap((rel) => problemsOf(rel, fs.readFileSync(path.join(SRC, rel), 'utf8')));
    expect(problems).toEqual([]);
  });

  describe('the check itself fails when it should', () => {
    it.each<[string, string, RegExp]>([
      ['core/x.ts', "import { run } from '../cli/check.ts';", /core may not import cli/],
      ['core/x.ts', "import type { Adapter } from '../adapters/adapter.ts';", /core may not import adapters/],
      ['core/x.ts', "export { plan } from '../installers/planner.ts';", /core may not import installers/],
      ['core/x.ts', "const m = await import('../packs/runtime.ts');", /core may not import packs/],
      ['core/x.ts', "import fs from 'node:fs';", /core must stay pure/],
      ['core/x.ts', "import {\n  readFileSync,\n} from 'node:fs';", /core must stay pure/],
      ['core/x.ts', "const y = require('js-yaml');", /may not import the package js-yaml/],
      ['core/x.ts', 'const home = process.env.HOME;', /only src\/cli touches process/],
      ['core/x.ts', 'const t = Date.now();', /clock/],
      ['shell/x.ts', "import { evaluate } from '../core/evaluate.ts';", /shell may not import core/],
      ['shell/x.ts', "import { loadRuntimePolicy } from '../packs/runtime.ts';", /shell may not import packs/],
      ['grammars/x.ts', "import { x } from '../shell/index.ts';", /grammars may not import shell/],
      ['packs/x.ts', "import { run } from '../cli/main.ts';", /packs may not import cli/],
      ['packs/schema.ts', "import fs from 'node:fs';", /only packs\/runtime.ts and the pack sources .* read from disk/],
      ['adapters/x.ts', "import { loadRuntimePolicy } from '../packs/runtime.ts';", /adapters may not import packs/],
      ['adapters/x.ts', "import fs from 'node:fs';", /adapters may not do I\/O/],
      ['installers/x.ts', "import { run } from '../cli/hooks.ts';", /installers may not import cli/],
      ['audit/x.ts', "import { x } from '../installers/apply.ts';", /audit may not import installers/],
      ['core/x.test.ts', "import { handleHook } from '../cli/driver.ts';", /core test imports cli/],
      ['cli/x.ts', "import { testEnv } from '../test-home.testing.ts';", /outside src/],
      ['files/x.ts', "import { x } from '../installers/apply.ts';", /files may not import installers/],
      ['files/x.ts', 'const e = process.env.HOME;', /only src\/cli touches process/],
      ['adapters/x.ts', "import { writeFileAtomic } from '../files/atomic.ts';", /adapters may not import files/],
      ['harnesses/x.ts', "import { joinFor } from '../paths.ts';", /harnesses may not import paths/],
      ['harnesses/x.ts', "import fs from 'node:fs';", /harnesses must stay pure/],
      ['harnesses/x.ts', 'const h = process.env.HOME;', /only src\/cli touches process/],
    ])('%s: %s', (rel, text, message) => {
      expect(problemsOf(rel, text).join('\n')).toMatch(message);
    });

    it.each<[string, string]>([
      ['core/x.ts', "import { analyzeCommandLine } from '../shell/index.ts';"],
      ['shell/x.ts', "import { readWords } from '../grammars/index.ts';"],
      ['core/x.ts', '// process.env is not used here\nexport const a = 1;'],
      ['packs/runtime.ts', "import fs from 'node:fs';"],
      ['cli/x.ts', "import { loadRuntimePolicy } from '../packs/runtime.ts';\nprocess.exitCode = 1;"],
      ['installers/x.ts', "import type { Adapter } from '../adapters/adapter.ts';"],
      ['cli/x.test.ts', "import { testEnv } from '../test-home.testing.ts';"],
      ['files/x.ts', 'const mine = process.pid;\nprocess.kill(pid, 0);'],
      ['installers/x.ts', "import { withLock } from '../files/lock.ts';"],
      ['paths.ts', "import { HARNESSES } from './harnesses/index.ts';"],
      ['packs/x.ts', "import { HARNESSES } from '../harnesses/index.ts';"],
    ])('allows %s: %s', (rel, text) => {
      expect(problemsOf(rel, text)).toEqual([]);
    });
  });
});
