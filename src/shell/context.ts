/**
 * The walk's context and what the parts of the analyser share (context.ts is to analyze.ts
 * what mvdan/sh's Runner fields are to its interp/ files): the context `Ctx` a command is
 * walked in, what it reads on standard input (`Stdin`, `StdinThunk`), the options, the one
 * depth guard, and the `Walker` interface the parts (builtins.ts, stdin.ts, provenance.ts,
 * run.ts, calls.ts) call back into instead of importing the walk, so no import runs in a circle.
 */
import type { Grammars } from '../grammars/types.ts';
import type { Command, Script, Word } from './ast.ts';
import { type ScriptRead, type ScriptSource, type ShellCommand, type ShellLimits, ShellParseError } from './types.ts';
import type { ArgWord, Vars } from './word-value.ts';
import type { ShellWork, WorkBudget } from './work.ts';

/** What a shell would read as its script on standard input. */
export type Stdin = (
  | { kind: 'text'; text: string; dynamic: boolean; label: string }
  | { kind: 'file'; path: ArgWord; label: string }
  | { kind: 'unknown'; label: string }
) & {
  /** The commands whose output it is, when known (ShellCommand.script_from). */
  from?: readonly ScriptSource[];
};

/** Standard input computed only when asked (most commands never ask). */
export type StdinThunk = () => Stdin | null;

export const NO_STDIN: StdinThunk = () => null;
const WRITTEN_INTO_STDIN: Stdin = { kind: 'unknown', label: '>(% …)' };
/** What `>(…)` reads: what the command writes into it, not known here (`tee >(sh)`). */
export const WRITTEN_INTO: StdinThunk = () => WRITTEN_INTO_STDIN;

export interface AnalyzeOptions extends ShellLimits {
  /** Structural nesting (compound commands, expansions) accepted. */
  maxNesting: number;
  /** Script files read through `readScript` per analysis. */
  maxScripts: number;
  /**
   * Returns a local file's text; null when something is there that cannot be read (not a
   * regular file, too large, unreadable); undefined when nothing is there.
   */
  readScript?: ((path: string) => ScriptRead) | undefined;
  /** What programs run and how they read their command line (builtin data plus packs'). */
  programs: Grammars;
  /** Units of work allowed (work.ts), counted in `work`, which the caller may share. */
  maxWork: number;
  work: ShellWork;
}

export interface Ctx {
  via: readonly string[];
  depth: number;
  vars: Vars;
  /** Inside a branch, loop, background job or after `&&`/`||`: assignments may not happen. */
  cond: boolean;
  /** What a command here reads on standard input, when known (computed only when asked). */
  stdin: StdinThunk;
}

/**
 * A context with the same shape every time. Measured: object spreads (`{ ...ctx, cond: true }`)
 * were a visible share of the walk's time and allocation; a plain constructor call is not.
 */
export const mkCtx = (via: readonly string[], depth: number, vars: Vars, cond: boolean, stdin: StdinThunk): Ctx => ({
  via,
  depth,
  vars,
  cond,
  stdin,
});

/** `f`, computed once on first use. */
export function memo(f: StdinThunk): StdinThunk {
  let done = false;
  let v: Stdin | null = null;
  return () => {
    if (!done) {
      v = f();
      done = true;
    }
    return v;
  };
}

/** What a producer writes to its standard output, when known. */
export type Output = { text: string; dynamic: boolean } | { file: ArgWord } | null;

/**
 * The one depth guard: script text walked at `depth` (nested scripts, script files, the line
 * itself at 0) past `maxDepth` is `too_deep`, reported at `at`.
 */
export function checkDepth(maxDepth: number, depth: number, at: number): void {
  if (depth > maxDepth) throw new ShellParseError('too_deep', `scripts nested deeper than ${maxDepth} levels`, at);
}

/**
 * What the parts call back into: the walk's results (`out`), its budget and options, and the
 * walk itself (analyze.ts's Analyzer is the one implementation).
 */
export interface Walker {
  readonly opts: AnalyzeOptions;
  readonly work: WorkBudget;
  /** Every command found so far, in order. */
  readonly out: ShellCommand[];
  /** Reports a command; each one costs work. */
  report(cmd: ShellCommand): void;
  /** expandWordInto, charging every word and character it makes. */
  expand(w: Word, vars: Vars, out: ArgWord[], braces?: boolean): void;
  /** assignValue, charging the value it builds. */
  chargedAssign(w: Word, vars: Vars): { value: string; dynamic: boolean };
  /** Parses `text` (nested at `depth`) and walks it. */
  analyzeText(text: string, base: number, depth: number, via: readonly string[], vars: Vars, stdin: Stdin | null): void;
  script(s: Script, ctx: Ctx): void;
  command(c: Command, ctx: Ctx): void;
  /** The command a chain of wrappers runs (`nice timeout 5 echo x` → `echo x`). */
  innermost(args: ArgWord[]): ArgWord[];
}

export function basename(path: string): string {
  if (!path.includes('/')) return path;
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const i = trimmed.lastIndexOf('/');
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}

export { utf8Length } from '../grammars/utf8.ts';

