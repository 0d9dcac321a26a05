/**
 * Test helper: argv lists of every simple command, from mvdan-sh (GopherJS build of mvdan/sh,
 * a devDependency used only as a test oracle) and from our parser without unwrapping, in one
 * comparable form: a word with any run-time part is `*`.
 */
import { createRequire } from 'node:module';
import type { Command, Script, Word } from '../ast.ts';
import { decodeAnsiC } from '../ansi-c.ts';
import type { Budget } from '../lexer.ts';
import { Parser } from '../parser.ts';

const require = createRequire(import.meta.url);

interface MvNode {
  [k: string]: unknown;
}
interface MvSyntax {
  NewParser(...opts: unknown[]): { Parse(src: string, name: string): MvNode };
  Walk(node: MvNode, fn: (n: MvNode | null) => boolean): void;
  NodeType(n: MvNode): string;
  Variant(v: unknown): unknown;
  LangBash: unknown;
}

let syntax: MvSyntax | null = null;
function mv(): MvSyntax {
  syntax ??= (require('mvdan-sh') as { syntax: MvSyntax }).syntax;
  return syntax;
}

/** A word as raw parts, the shape scripts/corpus-verdicts.mjs stores in mvdan-calls.json. */
export type RawPart = ['Lit', string] | ['Sgl', string, boolean] | ['Dbl', RawPart[]] | ['*'];

/** Live mvdan-sh: the raw words of every command. Throws what mvdan-sh throws (use `.Error()`). */
export function mvdanCalls(src: string): RawPart[][][] {
  const file = mv().NewParser(mv().Variant(mv().LangBash)).Parse(src, 'snippet.sh');
  const calls: RawPart[][][] = [];
  const parts = (ps: MvNode[]): RawPart[] =>
    ps.map((p): RawPart => {
      const t = mv().NodeType(p);
      if (t === 'Lit') return ['Lit', String(p['Value'])];
      if (t === 'SglQuoted') return ['Sgl', String(p['Value']), p['Dollar'] === true];
      if (t === 'DblQuoted') return ['Dbl', parts(p['Parts'] as MvNode[])];
      return ['*'];
    });
  mv().Walk(file, (n) => {
    const args = n === null ? [] : (n['Args'] as MvNode[] | undefined);
    if (n !== null && mv().NodeType(n) === 'CallExpr' && args !== undefined && args.length > 0) {
      calls.push(args.map((w) => parts(w['Parts'] as MvNode[])));
    }
    return true;
  });
  return calls;
}

/** Bash's backslash processing of an unquoted (or double-quoted) literal. */
function unescape(raw: string, dq: boolean): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charAt(i);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = raw.charAt(i + 1);
    if (n === '\n') {
      i++;
    } else if (!dq || '$`"\\'.includes(n)) {
      out += n;
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

function wordValue(parts: RawPart[], dq = false): string | null {
  let s = '';
  for (const p of parts) {
    if (p[0] === 'Lit') s += unescape(p[1], dq);
    else if (p[0] === 'Sgl') s += p[2] ? decodeAnsiC(p[1]) : p[1];
    else if (p[0] === 'Dbl') {
      const inner = wordValue(p[1], true);
      if (inner === null) return null;
      s += inner;
    } else return null;
  }
  return s;
}

/** mvdan-sh's commands as argv lists; a word with any run-time part is `*`. */
export function mvdanArgv(calls: RawPart[][][]): string[][] {
  return calls.map((words) => words.map((w) => wordValue(w) ?? '*'));
}

/** Commands whose syntax mvdan-sh models as another node (DeclClause, LetClause, …). */
export const MVDAN_CLAUSES = new Set(['declare', 'local', 'export', 'readonly', 'typeset', 'nameref', 'let']);

function ourWord(w: Word): string {
  let s = '';
  for (const p of w.parts) {
    if (p.type !== 'lit') return '*';
    s += p.text;
  }
  return s;
}

/** Every simple command's argv from our parser, nested ones included, without unwrapping. */
export function ourArgv(src: string): string[][] {
  const budget: Budget = { maxDepth: 64, maxNesting: 256, nesting: 0 };
  const out: string[][] = [];
  const words = (ws: Word[]): void => {
    for (const w of ws) for (const p of w.parts) if (p.type === 'dyn') for (const s of p.subs) script(s.body);
  };
  const command = (c: Command): void => {
    if (c.type === 'function') return command(c.body);
    if (c.type === 'compound') {
      words(c.words);
      c.redirs.forEach((r) => words([r.target, r.heredoc?.body ?? null].filter((x): x is Word => x !== null)));
      c.bodies.forEach(script);
      return;
    }
    for (const a of c.assigns) words([a.index, a.value, ...(a.array ?? [])].filter((x): x is Word => x !== null));
    words(c.words);
    c.redirs.forEach((r) => words([r.target, r.heredoc?.body ?? null].filter((x): x is Word => x !== null)));
    if (c.words.length > 0) out.push(c.words.map(ourWord));
  };
  const script = (s: Script): void => {
    for (const item of s.items) for (const p of item.andOr.pipelines) p.commands.forEach(command);
  };
  script(Parser.parse(src, 0, budget, 0));
  return out;
}
