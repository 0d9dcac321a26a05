/**
 * Test helpers for the analyser's parts (builtins.ts, stdin.ts, provenance.ts, run.ts, calls.ts):
 * a real walker (analyze.ts's Analyzer) with the parts built over it, so each part's table
 * tests call the part itself, and parsed commands to hand them.
 */
import { builtinGrammars } from '../grammars/lazy.ts';
import { Analyzer } from './analyze.ts';
import type { Command, Redir, SimpleCommand } from './ast.ts';
import { Calls } from './calls.ts';
import { type AnalyzeOptions, type Ctx, NO_STDIN, mkCtx } from './context.ts';
import { Parser } from './parser.ts';
import { Provenance } from './provenance.ts';
import { Runner } from './run.ts';
import { StdinReader } from './stdin.ts';
import { type ArgWord, Vars, expandWord } from './word-value.ts';
import { WorkBudget } from './work.ts';

export interface Parts {
  walker: Analyzer;
  prov: Provenance;
  input: StdinReader;
  calls: Calls;
  runner: Runner;
}

/** A walker with default limits and the builtin program data, and each part built over it. */
export function parts(extra: Partial<AnalyzeOptions> = {}): Parts {
  const walker = new Analyzer({
    maxBytes: 64 * 1024,
    maxDepth: 8,
    maxNesting: 64,
    maxScripts: 16,
    programs: builtinGrammars(),
    maxWork: 1 << 20,
    work: { used: 0 },
    ...extra,
  });
  const prov = new Provenance(walker);
  const input = new StdinReader(walker, prov);
  const calls = new Calls(walker);
  return { walker, prov, input, calls, runner: new Runner(walker, prov, input, calls) };
}

/** The first command of `text`, parsed. */
export function firstCommand(text: string): Command {
  const script = Parser.parse(text, 0, { maxDepth: 8, maxNesting: 64, nesting: 0, work: new WorkBudget({ used: 0 }, 1 << 20) }, 0);
  const c = script.items[0]?.andOr.pipelines[0]?.commands[0];
  if (c === undefined) throw new Error(`no command in ${JSON.stringify(text)}`);
  return c;
}

/** The words of the simple command `text`, expanded as the walk expands them. */
export function argWords(text: string, vars: Vars = new Vars()): ArgWord[] {
  const c = firstCommand(text) as SimpleCommand;
  return c.words.flatMap((w) => expandWord(w, vars));
}

/** A top-level context: no `via`, depth 0, fresh variables, nothing on standard input. */
export function topCtx(vars: Vars = new Vars()): Ctx {
  return mkCtx([], 0, vars, false, NO_STDIN);
}

/** The redirections of the first command of `text`. */
export function redirsOf(text: string): Redir[] {
  const c = firstCommand(text);
  if (c.type === 'function') throw new Error(`a function definition has no redirections: ${text}`);
  return c.redirs;
}
