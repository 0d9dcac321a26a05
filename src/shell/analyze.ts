/**
 * Walks the syntax tree and reports every simple command that could run: commands nested in
 * expansions, compound bodies and function bodies included, with what programs run read from
 * their data by the one reader (src/grammars: `sudo CMD`, `bash -c TEXT`, `find -exec`,
 * `python -c CODE`, …) and nested scripts (`bash -c`, `eval`, here-documents fed to a shell,
 * script files when a reader is given) analysed recursively within the depth bound.
 */
import { dashedCommand, mayRun, programData, readWords } from '../grammars/reader.ts';
import type { Grammars, ProgramGrammar, Run } from '../grammars/types.ts';
import type { Command, Redir, Script, SimpleCommand, Word } from './ast.ts';
import { scanInlineCode, type InlineLanguage } from './interpreters.ts';
import { Parser } from './parser.ts';
import { type PathWord, type RedirFile, type ScriptSource, type ShellCommand, type ShellLimits, ShellParseError } from './types.ts';
import { type ArgWord, MAX_ALTERNATIVES, Vars, assignValue, expandWord, expandWordInto, literalArg, wordText } from './word-value.ts';
import { COMMAND_COST, PARSE_COST, type ShellWork, UNWRAP_WORD_COST, WORD_COST, WorkBudget } from './work.ts';
import { xargsCommands, xargsItems } from './xargs-input.ts';

/** What a shell would read as its script on standard input. */
export type Stdin = (
  | { kind: 'text'; text: string; dynamic: boolean; label: string }
  | { kind: 'file'; path: ArgWord; label: string }
  | { kind: 'unknown'; label: string }
) & {
  /** The commands whose output it is, when known (ShellCommand.script_from). */
  from?: readonly ScriptSource[];
};

const LANGUAGES: ReadonlySet<string> = new Set<InlineLanguage>(['python', 'node', 'perl', 'ruby', 'php', 'awk']);

export interface AnalyzeOptions extends ShellLimits {
  /** Structural nesting (compound commands, expansions) accepted. */
  maxNesting: number;
  /** Script files read through `readScript` per analysis. */
  maxScripts: number;
  /** Returns a local script's text, or null (missing, not a regular file, too large). */
  readScript?: ((path: string) => string | null) | undefined;
  /** What programs run and how they read their command line (builtin data plus packs'). */
  programs: Grammars;
  /** Units of work allowed (work.ts), counted in `work`, which the caller may share. */
  maxWork: number;
  work: ShellWork;
}

interface Ctx {
  via: readonly string[];
  depth: number;
  vars: Vars;
  /** Inside a branch, loop, background job or after `&&`/`||`: assignments may not happen. */
  cond: boolean;
  /** What a command here reads on standard input, when known (computed only when asked). */
  stdin: StdinThunk;
}

type StdinThunk = () => Stdin | null;
const NO_STDIN: StdinThunk = () => null;
const WRITTEN_INTO_STDIN: Stdin = { kind: 'unknown', label: '>(% …)' };
const WRITTEN_INTO: StdinThunk = () => WRITTEN_INTO_STDIN;

/**
 * A context with the same shape every time. Measured: object spreads (`{ ...ctx, cond: true }`)
 * were a visible share of the walk's time and allocation; a plain constructor call is not.
 */
const mkCtx = (via: readonly string[], depth: number, vars: Vars, cond: boolean, stdin: StdinThunk): Ctx => ({
  via,
  depth,
  vars,
  cond,
  stdin,
});

function memo(f: StdinThunk): StdinThunk {
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

/** Distinct values recorded per variable in `assignments`; more are one unknown value. */
const MAX_ASSIGNED_VALUES = 16;
const ASSIGNING_BUILTINS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const READING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'unset', 'let']);
const SHEBANG_SHELL = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|mk|a|y|po)?sh\b/;
/** Redirections that write a file (their literal targets may be scripts run later on the line). */
const WRITING_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
/** Redirections of standard output away from the pipe (`> f`, `>&2`, `&> f`). */
const STDOUT_AWAY = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);

/**
 * bash runs an executable file without `#!` as a script of its own unless it looks binary:
 * a NUL among its first 80 bytes before the first newline (bash's check_binary_file).
 */
function looksBinary(text: string): boolean {
  const head = text.slice(0, 80);
  const nl = head.indexOf('\n');
  return (nl === -1 ? head : head.slice(0, nl)).includes('\0');
}

/** `./x.sh`, `x.sh`, `a//b` → one spelling, to compare a script's path with files written earlier. */
function samePath(p: string): string {
  return p.replace(/\/+/g, '/').replace(/^(?:\.\/)+/, '').replace(/(?:\/\.)+$/, '');
}

/** What a producer writes to its standard output, when known. */
type Output = { text: string; dynamic: boolean } | { file: ArgWord } | null;

export function basename(path: string): string {
  if (!path.includes('/')) return path;
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const i = trimmed.lastIndexOf('/');
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export class Analyzer {
  readonly out: ShellCommand[] = [];
  /**
   * Every variable the line may assign, with each value it may get (null: known only at run
   * time): prefix and plain assignments and `NAME=VALUE` arguments (`env`, `export`, `sudo`).
   * A superset, in no order: a consumer that must not miss an assignment reads it (git's
   * `GIT_CONFIG_*` aliases). Null until something is assigned.
   */
  assignments: Map<string, (string | null)[]> | null = null;
  private scriptsRead = 0;
  /**
   * Targets of writing redirections seen so far (`> x.sh`), with the commands that wrote them;
   * compared only when a script runs.
   */
  private readonly written: Array<{ target: Word; by: ShellCommand[] }> = [];
  /** The commands found in each substitution (`$(…)`, `<(…)`), for ShellCommand.script_from. */
  private subOut: Map<Script, ShellCommand[]> | null = null;
  /** Commands of a later pipeline stage → the commands of the earlier stages that fed them. */
  private fedBy: Map<ShellCommand, { first: number; end: number }> | null = null;
  /** writersOf's index (nameIndex), made when a line first runs a script file. */
  private names: NameIndex | null = null;
  /**
   * Shell functions and aliases the line defines, by name (`f() { …; }`, `alias p='git push'`),
   * for the commands that call them later on the line; null until one is defined.
   */
  private defined: Map<string, { body: Command } | { alias: string; start: number }> | null = null;
  /** Calls being expanded now (no recursion) and those done (each name and arguments once). */
  private calling: Set<string> | null = null;
  /** `dropRepeats`'s first index of each command of `out[0…upTo)`; `last`: `out[upTo - 1]` then, to see that `out` was not cut back since. */
  private seen: { first: Map<string, number>; upTo: number; last: ShellCommand | undefined } | null = null;

  private readonly work: WorkBudget;

  constructor(private readonly opts: AnalyzeOptions) {
    this.work = new WorkBudget(opts.work, opts.maxWork);
  }

  /** Reports a command; each one costs work (the caller judges every command reported). */
  report(cmd: ShellCommand): void {
    // The producers a script records (script_from, at most MAX_SOURCES) were found and compared too.
    this.work.charge(COMMAND_COST + cmd.argv.length + (cmd.script_from === undefined ? 0 : 16 * cmd.script_from.length), 'the commands found', 0);
    this.out.push(cmd);
  }

  /** expandWordInto, charging every word and character it makes (brace and variable expansion). */
  private expand(w: Word, vars: Vars, out: ArgWord[], braces = true): void {
    const from = out.length;
    expandWordInto(w, vars, out, braces);
    // Words made by brace expansion cost twice: each was copied atom by atom (measured).
    const per = out.length - from > 1 ? 2 * WORD_COST : WORD_COST;
    let units = 0;
    for (let i = from; i < out.length; i++) units += (out[i] as ArgWord).value.length + per;
    this.work.charge(units, 'expanding words', w.start);
  }

  /** assignValue, charging the value it builds (`B=$A` copies). */
  private chargedAssign(w: Word, vars: Vars): { value: string; dynamic: boolean } {
    const v = assignValue(w, vars);
    this.work.charge(v.value.length + WORD_COST, 'expanding words', w.start);
    return v;
  }

  /** Parses `text` (nested at `depth`) and reports its commands. */
  analyzeText(text: string, base: number, depth: number, via: readonly string[], vars: Vars, stdin: Stdin | null): void {
    if (depth > this.opts.maxDepth) {
      throw new ShellParseError('too_deep', `scripts nested deeper than ${this.opts.maxDepth} levels`, base);
    }
    const budget = { maxDepth: this.opts.maxDepth, maxNesting: this.opts.maxNesting, nesting: 0, work: this.work };
    const script = Parser.parse(text, base, budget, depth);
    this.script(script, mkCtx(via, depth, vars, false, stdin === null ? NO_STDIN : () => stdin));
  }

  // ---- tree walk ----------------------------------------------------------------------------

  private script(s: Script, ctx: Ctx): void {
    for (const item of s.items) {
      const c = item.async ? mkCtx(ctx.via, ctx.depth, ctx.vars.child(), true, ctx.stdin) : ctx;
      // Pipelines after `&&`/`||` run conditionally (same variables; made once, when needed).
      let after: Ctx | null = c.cond ? c : null;
      let i = 0;
      for (const p of item.andOr.pipelines) {
        const pc = i++ === 0 ? c : (after ??= mkCtx(c.via, c.depth, c.vars, true, c.stdin));
        const timed = p.time ? mkCtx([...pc.via, 'time'], pc.depth, pc.vars, pc.cond, pc.stdin) : pc;
        const cmds = p.commands;
        if (cmds.length === 1) {
          this.command(cmds[0] as Command, timed);
          continue;
        }
        let prev: Command | undefined;
        let prevIn: StdinThunk = timed.stdin;
        const first = this.out.length;
        // The first producers of the earlier stages, found once for the whole pipeline.
        let feeders: Producers | undefined;
        for (const cmd of cmds) {
          const stage = mkCtx(timed.via, timed.depth, timed.vars.child(), timed.cond, timed.stdin);
          const from = prev;
          const fromIn = prevIn;
          // Every command of the earlier stages writes into this one's input (`curl … | grep -v x | sh`).
          const end = this.out.length;
          if (from !== undefined) {
            stage.stdin = memo(() => this.withSources(this.pipeStdin(from, timed.vars, fromIn), (feeders ??= new Producers(this.out, first, this.work)).before(end), 'pipe'));
          }
          this.command(cmd, stage);
          if (from !== undefined && this.out.length > end) {
            // `curl … | tee x.sh`: what a later stage writes into a file comes from the earlier
            // ones (kept as a range of `out`, which only grows below `end`: linear for long pipelines).
            const fed = { first, end };
            const map = (this.fedBy ??= new Map());
            for (let k = end; k < this.out.length; k++) map.set(this.out[k] as ShellCommand, fed);
          }
          prev = cmd;
          prevIn = stage.stdin;
        }
      }
    }
  }

  private command(c: Command, ctx: Ctx): void {
    if (c.type === 'function') {
      (this.defined ??= new Map()).set(c.name, { body: c.body });
      // A function's `$1`, `"$@"` are its call's arguments, not the script's: unknown here, and
      // the arguments of each call later on the line (`call`).
      const fv = ctx.vars.child();
      fv.setPositional(null);
      // (A call of itself in its body is not followed: see `call`.)
      const calling = (this.calling ??= new Set());
      const active = !calling.has(`${c.name}\0`);
      calling.add(`${c.name}\0`);
      try {
        this.command(c.body, mkCtx(ctx.via, ctx.depth, fv, true, ctx.stdin));
      } finally {
        if (active) calling.delete(`${c.name}\0`);
      }
      // `f() { v=-f; }; f; git push $v`: what the body assigns may hold after a call.
      ctx.vars.absorbMaybe(fv);
      return;
    }
    if (c.type === 'simple') {
      this.simple(c, ctx);
      return;
    }
    this.redirSubs(c.redirs, ctx);
    for (const w of c.words) this.wordSubs(w, ctx);
    const files = redirFiles(c.redirs, ctx.vars);
    if (files !== null) this.report(withCwd({ argv: [], dynamic: [], opaque: false, via: ctx.via.slice(), redirs: files }, ctx.vars));
    const stdin = this.stdinOf(c.redirs, ctx);
    let inner: Ctx;
    if (c.kind === 'subshell') inner = mkCtx(ctx.via, ctx.depth, ctx.vars.child(), ctx.cond, stdin);
    else if (c.kind === 'coproc') inner = mkCtx([...ctx.via, 'coproc'], ctx.depth, ctx.vars.child(), true, NO_STDIN);
    else if (c.kind === 'group') inner = mkCtx(ctx.via, ctx.depth, ctx.vars, ctx.cond, stdin);
    else inner = mkCtx(ctx.via, ctx.depth, ctx.vars, true, stdin);
    if (c.name !== undefined) {
      // `for v in a b`: in the body (and after it) v is one of the literal words, when they are.
      let alts: string[] | undefined;
      if (c.kind === 'for' && c.words.length > 0 && c.words.length <= MAX_ALTERNATIVES) {
        const ws: ArgWord[] = [];
        for (const w of c.words) this.expand(w, ctx.vars, ws);
        if (ws.length <= MAX_ALTERNATIVES && ws.every((w) => !w.dynamic && !w.glob)) alts = ws.map((w) => w.value);
      }
      ctx.vars.set(c.name, null, alts);
      this.assigned(c.name, null);
    }
    for (const b of c.bodies) this.script(b, inner);
  }

  private wordSubs(w: Word, ctx: Ctx): void {
    for (const p of w.parts) {
      if (p.type !== 'dyn') continue;
      for (const sub of p.subs) {
        // `>(…)` reads what the command writes into it: not known here (`tee >(sh)`).
        const stdin = sub.label === '>(…)' ? WRITTEN_INTO : NO_STDIN;
        const mark = this.out.length;
        this.script(sub.body, mkCtx([...ctx.via, sub.label], ctx.depth + 1, ctx.vars.child(), ctx.cond, stdin));
        if (this.out.length > mark) (this.subOut ??= new Map()).set(sub.body, this.out.slice(mark));
      }
    }
  }

  private redirSubs(redirs: Redir[], ctx: Ctx): void {
    for (const r of redirs) {
      if (r.target !== null && r.heredoc === null) {
        this.wordSubs(r.target, ctx);
        if (WRITING_OPS.has(r.op)) this.written.push({ target: r.target, by: [] });
      }
      if (r.heredoc?.body != null) this.wordSubs(r.heredoc.body, ctx);
    }
  }

  private simple(cmd: SimpleCommand, ctx: Ctx): void {
    for (const a of cmd.assigns) {
      if (a.index !== null) this.wordSubs(a.index, ctx);
      if (a.value !== null) this.wordSubs(a.value, ctx);
      if (a.array !== null) for (const w of a.array) this.wordSubs(w, ctx);
    }
    for (const w of cmd.words) this.wordSubs(w, ctx);
    const writes = this.written.length;
    this.redirSubs(cmd.redirs, ctx);

    for (const a of cmd.assigns) {
      if (a.index !== null || a.value === null) continue;
      const v = this.chargedAssign(a.value, ctx.vars);
      this.assigned(a.name, v.dynamic ? null : v.value);
    }
    const files = cmd.redirs.length === 0 ? null : redirFiles(cmd.redirs, ctx.vars);
    if (cmd.words.length === 0) {
      // `> f` alone truncates f: reported as a command with no argv.
      if (files !== null) this.report(withCwd({ argv: [], dynamic: [], opaque: false, via: ctx.via.slice(), redirs: files }, ctx.vars));
      for (const a of cmd.assigns) {
        // `B=$A` copies a known value: no field splitting in an assignment.
        const v = a.value === null || a.index !== null ? null : this.chargedAssign(a.value, ctx.vars);
        const known = v !== null && !v.dynamic ? v.value : null;
        // In a body that may not run, the value is one of the earlier and the new (Vars.setMaybe).
        if (ctx.cond) ctx.vars.setMaybe(a.name, known);
        else ctx.vars.set(a.name, known);
      }
      return;
    }
    const args: ArgWord[] = [];
    for (const w of cmd.words) this.expand(w, ctx.vars, args);
    let run = ctx;
    if (cmd.assigns.length > 0) {
      // `X=v cmd`: X is exported to cmd (a nested shell sees it) and to `eval`; not to this line.
      const v = ctx.vars.child();
      for (const a of cmd.assigns) {
        const val = a.value === null || a.index !== null ? null : this.chargedAssign(a.value, ctx.vars);
        v.set(a.name, val !== null && !val.dynamic ? val.value : null);
      }
      run = mkCtx(ctx.via, ctx.depth, v, ctx.cond, ctx.stdin);
    }
    for (let i = 1; i < args.length; i++) {
      const w = args[i] as ArgWord;
      const eq = w.value.indexOf('=');
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value.slice(0, eq))) this.assigned(w.value.slice(0, eq), w.dynamic ? null : w.value.slice(eq + 1));
    }
    const mark = this.out.length;
    const stdin = this.stdinOf(cmd.redirs, ctx);
    this.unwrap(args, ctx.via, stdin, run);
    // Words with literal alternatives: the command once more per combination of them.
    for (let i = 0; i < args.length; i++) {
      if ((args[i] as ArgWord).alts !== undefined) {
        // Built one at a time and charged first: a long command cannot multiply before the budget answers.
        for (const alt of alternativeArgvs(args, () => this.work.charge(COMMAND_COST + args.length, 'the commands found', 0))) {
          this.unwrap(alt, ctx.via, stdin, run);
        }
        break;
      }
    }
    // Every command reported here runs in the directory the line's `cd`s left (nested scripts
    // set their own first); the redirections belong to the first (the command itself).
    for (let i = mark; i < this.out.length; i++) withCwd(this.out[i] as ShellCommand, ctx.vars);
    if (files !== null) {
      const first = this.out[mark];
      if (first !== undefined) first.redirs = first.redirs === undefined ? files : [...first.redirs, ...files];
      else this.report(withCwd({ argv: [], dynamic: [], opaque: false, via: ctx.via.slice(), redirs: files }, ctx.vars));
    }
    // `curl URL > x.sh`: the command wrote the redirection's target.
    if (this.written.length > writes) {
      const by = this.out.slice(mark);
      for (let k = writes; k < this.written.length; k++) (this.written[k] as { by: ShellCommand[] }).by = by;
    }
    this.varEffects(args, cmd.words, ctx);
  }

  private assigned(name: string, value: string | null): void {
    const all = (this.assignments ??= new Map());
    const list = all.get(name);
    if (list === undefined) all.set(name, [value]);
    else if (list.length >= MAX_ASSIGNED_VALUES) {
      // Linear work for any input: past the bound, one unknown value stands for the rest.
      if (list[list.length - 1] !== null) list.push(null);
    } else if (!list.includes(value)) list.push(value);
  }

  /** Variables a command sets: `export x=git` (known), `read x` (unknown); `set --`, `shift`. */
  private varEffects(args: ArgWord[], words: Word[], ctx: Ctx): void {
    const prog = args[0] !== undefined && !args[0].dynamic ? basename(args[0].value) : '';
    if (prog === 'cd' || prog === 'pushd' || prog === 'popd') {
      changeDir(prog, args, ctx.vars, ctx.cond);
    } else if (ASSIGNING_BUILTINS.has(prog)) {
      for (let i = 1; i < words.length; i++) {
        const word = words[i] as Word;
        // Declaration builtins take `NAME=value` as an assignment (no field splitting): `export B=$A`.
        const w = this.chargedAssign(word, ctx.vars);
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)([\s\S]*)$/.exec(w.value);
        if (m?.[1] === undefined) continue;
        const known = !w.dynamic && m[2] === '=' && !(m[3] ?? '').startsWith('(') && !hasBrace(word);
        if (ctx.cond) ctx.vars.setMaybe(m[1], known ? (m[3] ?? '') : null);
        else ctx.vars.set(m[1], known ? (m[3] ?? '') : null);
      }
    } else if (prog === 'shift' || prog === 'set') {
      const pos = ctx.vars.positional();
      const next = prog === 'set' ? setPositional(args, pos) : shiftPositional(args, pos);
      if (next !== undefined) ctx.vars.setPositional(ctx.cond ? null : next);
    } else if (READING_BUILTINS.has(prog)) {
      for (const w of args.slice(1)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(w.value);
        if (m?.[1] !== undefined) {
          ctx.vars.set(m[1], null);
          this.assigned(m[1], null);
        }
      }
    }
  }

  // ---- standard input -----------------------------------------------------------------------

  private stdinOf(redirs: Redir[], ctx: Ctx): StdinThunk {
    // Output redirections (`2>&1`, `> log`) leave standard input alone: no thunk to make.
    if (!redirs.some(readsStdin)) return ctx.stdin;
    return memo(() => this.redirStdin(redirs, ctx.vars) ?? ctx.stdin());
  }

  private redirStdin(redirs: Redir[], vars: Vars): Stdin | null {
    return this.redirIn(redirs, vars, '% <');
  }

  private redirIn(redirs: Redir[], vars: Vars, fileLabel: string): Stdin | null {
    let stdin: Stdin | null = null;
    for (const r of redirs) {
      if (!readsStdin(r)) continue;
      if (r.heredoc !== null) {
        const body = r.heredoc.body === null ? { value: r.heredoc.text, dynamic: false } : wordText(r.heredoc.body);
        stdin = { kind: 'text', text: body.value, dynamic: body.dynamic, label: '% <<' };
        if (body.dynamic && r.heredoc.body !== null) stdin = this.withSources(stdin, this.wordProducers(r.heredoc.body), 'substitution');
      } else if (r.op === '<<<' && r.target !== null) {
        const ws: ArgWord[] = [];
        this.expand(r.target, vars, ws, false);
        const text = ws.map((w) => w.value).join(' ') + '\n';
        stdin = { kind: 'text', text, dynamic: ws.some((w) => w.dynamic), label: '% <<<' };
        if (stdin.dynamic) stdin = this.withSources(stdin, this.wordProducers(r.target), 'substitution');
      } else if (r.op === '<' && r.target !== null) {
        const ws: ArgWord[] = [];
        this.expand(r.target, vars, ws, false);
        const path = ws[0];
        if (ws.length === 1 && path?.procSub !== undefined) {
          // `sh < <(echo …)`: the process substitution's output.
          stdin = this.withSources(this.outputStdin(this.scriptOutput(path.procSub, vars, 0), '% < <(…)'), this.subOut?.get(path.procSub) ?? [], 'substitution');
        } else {
          stdin = ws.length === 1 && path !== undefined && !path.dynamic ? { kind: 'file', path, label: fileLabel } : { kind: 'unknown', label: fileLabel };
        }
      }
    }
    return stdin;
  }

  /** Output of the previous pipeline stage when it is plainly literal (echo, printf, cat <<EOF, { …; }). */
  private pipeStdin(prev: Command, vars: Vars, prevIn: StdinThunk): Stdin {
    return this.outputStdin(this.commandOutput(prev, vars, prevIn, 0), '| %');
  }

  private outputStdin(out: Output, label: string): Stdin {
    if (out === null) return { kind: 'unknown', label };
    if ('file' in out) return { kind: 'file', path: out.file, label };
    return { kind: 'text', text: out.text, dynamic: out.dynamic, label };
  }

  /**
   * What a list of commands writes to standard output, when every part is known: outputs joined
   * in order. A part that is not known makes the whole run-time (dynamic) text, with the known
   * parts kept (so what they plainly show is still analysed); nothing known at all: null.
   */
  private scriptOutput(s: Script, vars: Vars, level: number): Output {
    let text = '';
    let dynamic = false;
    let known = 0;
    let only: Output = null;
    let parts = 0;
    for (const item of s.items) {
      for (const p of item.andOr.pipelines) {
        const cmds = p.commands;
        const last = cmds[cmds.length - 1];
        // The last stage writes the pipeline's output; earlier stages feed it.
        const prevIn: StdinThunk = cmds.length > 1 ? () => this.pipeStdin(cmds[cmds.length - 2] as Command, vars, NO_STDIN) : NO_STDIN;
        const out = last === undefined || item.async ? null : this.commandOutput(last, vars, prevIn, level + 1);
        parts++;
        only = out;
        if (out === null || 'file' in out) {
          dynamic = true;
          text += '\n';
          continue;
        }
        known++;
        text += out.text;
        if (out.dynamic) dynamic = true;
      }
    }
    if (parts === 1) return only;
    return known === 0 && dynamic ? null : { text, dynamic };
  }

  private commandOutput(c: Command, vars: Vars, stdin: StdinThunk, level: number): Output {
    if (level > 8) return null;
    if (c.type === 'function') return { text: '', dynamic: false };
    if (c.redirs.some((r) => (r.fd === '' || r.fd === '1') && STDOUT_AWAY.has(r.op) && !(r.op === '>&' && wordText(r.target ?? EMPTY_WORD).value === '1'))) {
      return { text: '', dynamic: false };
    }
    if (c.type === 'compound') {
      const body = c.bodies[0];
      if ((c.kind !== 'group' && c.kind !== 'subshell') || body === undefined) return null;
      return this.scriptOutput(body, c.kind === 'subshell' ? vars.child() : vars, level);
    }
    if (c.words.length === 0) {
      // `$(< FILE)`: bash's way of writing `$(cat FILE)`; a redirection alone prints nothing.
      const only = c.redirs.length === 1 ? c.redirs[0] : undefined;
      if (only?.op === '<' && (only.fd === '' || only.fd === '0') && level === 1) {
        const s = this.redirStdin(c.redirs, vars);
        if (s?.kind === 'file' && this.opts.readScript !== undefined) return { file: s.path };
        return null;
      }
      return { text: '', dynamic: false };
    }
    const words: ArgWord[] = [];
    for (const w of c.words) this.expand(w, vars, words);
    // Through wrappers: `timeout 5 echo 'git push' | sh` pipes what echo prints.
    const args = this.innermost(words);
    const prog = args[0] !== undefined && !args[0].dynamic ? basename(args[0].value) : '';
    const dynamic = args.some((a) => a.dynamic);
    if (prog === 'echo') {
      let i = 1;
      let newline = true;
      let escapes = false;
      while (i < args.length && /^-[neE]+$/.test(args[i]?.value ?? '')) {
        const f = args[i]?.value ?? '';
        if (f.includes('n')) newline = false;
        if (f.includes('e')) escapes = true;
        if (f.includes('E')) escapes = false;
        i++;
      }
      let text = args.slice(i).map((a) => a.value).join(' ');
      if (escapes) text = decodeEchoEscapes(text);
      return { text: newline ? text + '\n' : text, dynamic };
    }
    if (prog === 'printf' && args.length >= 2) {
      if (args[1]?.value === '-v') return { text: '', dynamic: false };
      const from = args[1]?.value === '--' ? 2 : 1;
      if (from >= args.length) return null;
      const text = simplePrintf(args[from]?.value ?? '', args.slice(from + 1).map((a) => a.value));
      return text === null ? null : { text, dynamic };
    }
    if (prog === 'cat' || prog === 'tee') {
      // `tee FILE…` passes its input on (and writes it to the files).
      const files = prog === 'tee' ? [] : args.slice(1);
      if (files.length === 0 || (files.length === 1 && files[0]?.value === '-')) {
        const s = this.redirStdin(c.redirs, vars) ?? stdin();
        if (s === null || s.kind === 'unknown') return null;
        return s.kind === 'file' ? { file: s.path } : { text: s.text, dynamic: s.dynamic };
      }
      const f = files[0];
      const readable = this.opts.readScript !== undefined;
      if (readable && files.length === 1 && f !== undefined && !f.dynamic && !f.glob && !f.value.startsWith('-')) return { file: f };
      return null;
    }
    if (prog === 'true' || prog === ':') return { text: '', dynamic: false };
    return null;
  }

  /** The command a chain of wrappers runs (`nice timeout 5 echo x` → `echo x`), read with the program data. */
  private innermost(argsIn: ArgWord[]): ArgWord[] {
    let args = argsIn;
    for (let guard = 0; guard < 16; guard++) {
      const w0 = args[0];
      if (w0 === undefined || w0.dynamic || w0.glob) return args;
      const prog = basename(w0.value);
      const data = programData(prog, this.opts.programs);
      if (data === undefined || !mayRun(data.grammar, args)) return args;
      const r = readWords(args, data.grammar, prog, 'runs');
      const only = r.unknown === null && r.runs.length === 1 && !r.self ? r.runs[0] : undefined;
      if (only?.kind !== 'command') return args;
      args = only.argv;
    }
    return args;
  }

  // ---- unwrapping ---------------------------------------------------------------------------

  /**
   * Reports the command `argsIn` and what it runs. `walk`: it runs for each path a walker finds
   * (`find DIR -exec CMD {} ;`): the words holding the replacement string name those paths.
   */
  unwrap(argsIn: ArgWord[], viaIn: readonly string[], stdinIn: StdinThunk, ctx: Ctx, walk?: Walk): void {
    const mark = this.out.length;
    this.unwrapChain(argsIn, viaIn, stdinIn, ctx);
    if (walk === undefined) return;
    for (let i = mark; i < this.out.length; i++) {
      const c = this.out[i] as ShellCommand;
      if (c.walk !== undefined || c.opaque) continue;
      const indices = c.dynamic.filter((k) => k > 0 && (c.argv[k] ?? '').includes(walk.replace));
      if (indices.length > 0) c.walk = { indices, under: walk.under };
    }
  }

  private unwrapChain(argsIn: ArgWord[], viaIn: readonly string[], stdinIn: StdinThunk, ctx: Ctx): void {
    let args = argsIn;
    let via = viaIn;
    let stdin = stdinIn;
    const programs = this.opts.programs;
    /** `NAME=value` words of the wrappers so far (`env GIT_SSH_COMMAND=… git fetch`), for `envRuns`. */
    let chainEnv: Map<string, string | null> | undefined;
    // A chain of wrappers (`sudo nice env CMD`) is followed in this loop, not by recursion.
    for (let guard = 0; guard < 64; guard++) {
      const w0 = args[0];
      if (w0 === undefined) return;
      // Each step hands the rest of the words on (handlers scan them): `find -exec find -exec …`.
      this.work.charge(UNWRAP_WORD_COST * (args.length + 1), 'unwrapping wrappers', w0.start);
      if (w0.dynamic || w0.glob) {
        const cmd = toCommand(w0.value, args, via, true);
        // A program word known only at run time is text known only at run time (`$X`, `"$@"`).
        if (w0.dynamic) {
          cmd.unseen = 'runtime';
          // `curl … | $SHELL`: what it reads comes from there.
          const from = stdin()?.from;
          if (from !== undefined && from.length > 0) cmd.script_from = dedupeSources(from);
        }
        this.report(cmd);
        return;
      }
      // A function or an alias the line defined: what it runs, with this call's arguments.
      if (this.defined !== null && this.defined.has(w0.value)) this.call(w0.value, args, via, stdin, ctx);
      let prog = basename(w0.value);
      let data = programData(prog, programs);
      if (data === undefined) {
        // `git-push`, `…/git-core/git-push`: `git push`.
        const dashed = dashedCommand(prog, programs);
        if (dashed !== undefined) {
          prog = dashed[0];
          args = [{ ...w0, value: dashed[0] }, { value: dashed[1], dynamic: false, glob: false, start: w0.start }, ...args.slice(1)];
          data = programData(prog, programs);
        }
      }
      if (data?.grammar.env_runs !== undefined) this.envRuns(data.grammar.env_runs, prog, via, ctx, chainEnv);
      if (data === undefined || !mayRun(data.grammar, args)) {
        this.report(toCommand(prog, args, via, false));
        if (w0.value.includes('/')) this.file(w0, w0.value, true, via, ctx, args.slice(1));
        return;
      }
      const r = readWords(args, data.grammar, prog, 'runs');
      if (r.unknown !== null) {
        this.report(toCommand(prog, args, via, true));
        return;
      }
      const only = r.runs.length === 1 && !r.self ? r.runs[0] : undefined;
      if (only?.kind === 'command' && only.input !== undefined) {
        // Input known on the line (`echo … | xargs …`): the commands it makes (xargs-input.ts).
        const items = xargsItems(stdin(), only.input.replace !== null, only.input.nul === true);
        const made = items === null ? null : xargsCommands(only.input.argv, only.input.replace, items);
        if (made !== null && only.input.replace !== null) {
          for (const m of made) this.unwrap(m, [...via, only.label], NO_STDIN, ctx);
          return;
        }
        if (made?.[0] !== undefined) {
          via = [...via, only.label];
          args = made[0];
          stdin = NO_STDIN;
          continue;
        }
      }
      if (only?.kind === 'command') {
        if (data.grammar.runs?.assignments === true) {
          const end = args.indexOf(only.argv[0] as ArgWord);
          for (let i = 1; i < (end < 0 ? args.length : end); i++) {
            const w = args[i] as ArgWord;
            const eq = w.value.indexOf('=');
            if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value.slice(0, eq))) (chainEnv ??= new Map()).set(w.value.slice(0, eq), w.dynamic ? null : w.value.slice(eq + 1));
          }
        }
        via = [...via, only.label];
        // `curl … | xargs bash -c`: run-time arguments the runner makes up (`$XARGS_ARGS`, `{}`)
        // are read from its standard input, the producers' output.
        const from = only.stdin ? undefined : stdin()?.from;
        if (from !== undefined && from.length > 0) {
          const before = new Set(args.filter((w) => w.dynamic).map((w) => w.value));
          args = only.argv.map((w) => (w.dynamic && !before.has(w.value) ? { ...w, from } : w));
        } else args = only.argv;
        if (!only.stdin) stdin = NO_STDIN;
        continue;
      }
      const walk = walkOf(data.grammar, args, prog, r.runs);
      for (const run of r.runs) this.run(run, prog, via, stdin, ctx, walk);
      // An interpreter running a program file written or fetched earlier on the line
      // (`curl -o t.py … && python3 t.py`): unseen, with the commands that named it.
      if (data.grammar.runs?.stdin_code === true && r.runs.length === 0 && r.operands[0] !== undefined) {
        const file = args[r.operands[0] as number];
        // `node -`, `python3 -`: the program is read from standard input.
        if (file?.value === '-' && !file.dynamic) this.run({ kind: 'stdin_code', language: data.grammar.runs.language ?? '' }, prog, via, stdin, ctx);
        else if (file !== undefined) this.programFile(file, `${prog} ${file.value}`, via);
      }
      if (r.self) this.report(toCommand(prog, args, via, false));
      return;
    }
    this.report(toCommand(args[0]?.value ?? '', args, via, true));
  }

  /**
   * A call of a function or an alias the line defined (`f() { git push "$@"; }; f -f`,
   * `alias p='git push'` then `p -f`): its body, or the alias's text followed by the call's
   * words, walked once more with `$1 …` set to the call's arguments. The body was already
   * walked where it was defined, with its arguments unknown; this sees what a literal call
   * makes of it. A name calling itself is not followed again (bash stops an alias there, and a
   * recursive function repeats what was seen); each name with the same arguments is walked once,
   * and every walk is charged to the line's work budget.
   */
  private call(name: string, args: readonly ArgWord[], via: readonly string[], stdin: StdinThunk, ctx: Ctx): void {
    const def = this.defined?.get(name);
    if (def === undefined) return;
    const positional = positionalOf([literalArg(name, args[0]?.start), ...args.slice(1)]);
    const key = `${name}\0${positional.map((p) => (p === null ? '\u0001' : p)).join('\0')}`;
    const calling = (this.calling ??= new Set());
    if (calling.has(key) || calling.has(`${name}\0`)) return;
    calling.add(key);
    calling.add(`${name}\0`);
    this.work.charge(COMMAND_COST + args.length, 'calls of functions and aliases', args[0]?.start ?? 0);
    const vars = ctx.vars.child();
    vars.setPositional(positional);
    const mark = this.out.length;
    try {
      if ('body' in def) this.command(def.body, mkCtx(ctx.via, ctx.depth, vars, ctx.cond, stdin));
      else {
        // Alias expansion is textual: the value, then the rest of the command's words.
        const budget = { maxDepth: this.opts.maxDepth, maxNesting: this.opts.maxNesting, nesting: 0, work: this.work };
        const script = Parser.parse(`${def.alias} "$@"`, def.start, budget, ctx.depth + 1);
        this.script(script, mkCtx([...via, `alias ${name}`], ctx.depth + 1, vars, ctx.cond, stdin));
      }
    } finally {
      calling.delete(`${name}\0`);
    }
    // What the walk where the body was defined found already is not reported twice.
    if (this.out.length > mark) this.dropRepeats(mark);
    // What the body assigns may hold after the call.
    ctx.vars.absorbMaybe(vars);
  }

  /**
   * What a program runs from the environment the line gives it (program data `env_runs`):
   * `GIT_SSH_COMMAND='…' git fetch`, `export GIT_EDITOR=…; git commit`, `env BASH_ENV=x.sh bash
   * -c …`. Only variables the line sets: the environment the harness was started with is the
   * person's. A value known only at run time is an unseen command. What the value runs sees the
   * same variable; it is not followed a second time.
   */
  private envRuns(spec: Readonly<Record<string, 'shell' | 'script'>>, prog: string, via: readonly string[], ctx: Ctx, chainEnv: ReadonlyMap<string, string | null> | undefined): void {
    for (const [name, how] of Object.entries(spec)) {
      const value = chainEnv?.has(name) === true ? chainEnv.get(name) : ctx.vars.get(name);
      if (value === undefined || value === '') continue;
      const label = `${prog} ${name}`;
      if (value === null) {
        this.report({ argv: [`$${name}`], dynamic: [0], opaque: true, via: [...via, label], unseen: 'runtime' });
        continue;
      }
      // What it runs sees the same variable (`GIT_SSH_COMMAND='git fetch' git fetch`): not followed again.
      const key = `$${name}\0${value}`;
      const active = (this.calling ??= new Set());
      if (active.has(key)) continue;
      active.add(key);
      try {
        const word = literalArg(value, 0);
        if (how === 'shell') this.nestedScript(word, label, via, ctx);
        else this.file(word, label, false, via, ctx);
      } finally {
        active.delete(key);
      }
    }
  }

  /**
   * Removes from `out[from…]` the commands equal to one reported before it (or earlier in it).
   * `seen` maps each command's key to the index where it first appears in `out[0…upTo)`, kept
   * between calls and extended, so that a line of many calls, or of calls nested many deep, stays
   * linear (each call keys its own output once); when `out` was cut back in between (a walk
   * undone), it is made again.
   */
  private dropRepeats(from: number): void {
    let seen = this.seen;
    if (seen === null || seen.upTo > this.out.length || (seen.upTo > 0 && this.out[seen.upTo - 1] !== seen.last)) {
      seen = this.seen = { first: new Map(), upTo: 0, last: undefined };
    }
    // Keying a command is work like reporting one: a call nested N deep keys its output N times.
    this.work.charge(WORD_COST * (this.out.length - Math.min(from, seen.upTo)), 'calls of functions and aliases', 0);
    for (; seen.upTo < from; seen.upTo++) {
      const key = JSON.stringify(this.out[seen.upTo]);
      if (!seen.first.has(key)) seen.first.set(key, seen.upTo);
    }
    let k = from;
    for (let i = from; i < this.out.length; i++) {
      const c = this.out[i] as ShellCommand;
      const key = JSON.stringify(c);
      const at = seen.first.get(key);
      if (at !== undefined && at < k) continue;
      this.out[k] = c;
      seen.first.set(key, k);
      k++;
    }
    this.out.length = k;
    seen.upTo = k;
    seen.last = this.out[k - 1];
  }

  /** One thing a command runs (the reader's `runs`). */
  private run(run: Run<ArgWord>, prog: string, via: readonly string[], stdin: StdinThunk, ctx: Ctx, walk?: Walk): void {
    switch (run.kind) {
      case 'command':
        this.unwrap(run.argv, [...via, run.label], run.stdin ? stdin : NO_STDIN, ctx, walk);
        return;
      case 'shell':
        // The words after the text are its $0, $1, … (`bash -c TEXT _ a`); its commands read the
        // program's standard input (`npx -c sh <<EOF … EOF`).
        this.nestedScript(run.text, run.label, via, ctx, run.args, stdin());
        // `alias NAME=VALUE`: VALUE runs where NAME is used later on the line.
        if (run.defines !== undefined && !run.text.dynamic) (this.defined ??= new Map()).set(run.defines, { alias: run.text.value, start: run.text.start });
        return;
      case 'script':
        this.file(run.path, run.label, false, via, ctx, run.args);
        return;
      case 'stdin_script':
        // `bash -s a b`: $0 is the shell's name, then the operands.
        this.stdinScript(prog, via, stdin(), ctx, run.args.length > 0 ? [literalArg(prog, run.args[0]?.start), ...run.args] : undefined);
        return;
      case 'code':
        this.inlineCode(run.code.value, run.code.dynamic, run.language, run.label, via, ctx, run.code.start);
        return;
      case 'stdin_code': {
        // The program is read from standard input (`… | python3`, `node < x.js`).
        const s = stdin();
        if (s === null) return;
        const label = s.label.replace('%', prog);
        if (s.kind === 'text') this.inlineCode(s.text, s.dynamic, run.language, label, via, ctx, 0, s.from ?? []);
        else if (s.kind === 'file') this.programFile(s.from ? { ...s.path, from: s.from } : s.path, label, via);
        else this.report(unseenStdin(prog, [...via, label], s.from));
        return;
      }
    }
  }

  /** A shell reading its script from standard input (`positional`: its `$0 $1 …`). */
  private stdinScript(prog: string, via: readonly string[], s: Stdin | null, ctx: Ctx, positional?: readonly ArgWord[]): void {
    if (s === null) return;
    const label = s.label.replace('%', prog);
    const from = s.from;
    if (s.kind === 'text') this.nestedScript({ value: s.text, dynamic: s.dynamic, glob: false, start: 0, ...(from && { from }) }, label, via, ctx, positional);
    else if (s.kind === 'file') this.file(from ? { ...s.path, from } : s.path, label, false, via, ctx, positional?.slice(1));
    else this.report(unseenStdin(prog, [...via, label], from));
  }

  /** Code given to an interpreter: the commands it plainly runs (interpreters.ts). */
  private inlineCode(
    code: string,
    dynamic: boolean,
    language: string,
    label: string,
    via: readonly string[],
    ctx: Ctx,
    start: number,
    /** Given when the code is a program read from standard input: who produced it. */
    from?: readonly ScriptSource[],
  ): void {
    const nestedVia = [...via, label];
    if (dynamic || !LANGUAGES.has(language)) {
      const cmd: ShellCommand = { argv: [code], dynamic: [0], opaque: true, via: nestedVia };
      if (from !== undefined && dynamic) {
        cmd.unseen = 'runtime';
        if (from.length > 0) cmd.script_from = dedupeSources(from);
      }
      this.report(cmd);
      return;
    }
    for (const call of scanInlineCode(code, language as InlineLanguage)) {
      // (`fed`: what the code writes into the command is not known here.)
      if (call.kind === 'shell') this.nestedScript(literalArg(call.text, start), label, via, ctx, undefined, call.fed ? { kind: 'unknown', label: `% < ${label}` } : null);
      else if (call.kind === 'argv') this.unwrap(call.argv.map((a) => literalArg(a, start)), nestedVia, NO_STDIN, ctx);
      // A process call whose command is not a literal runs text known only at run time.
      else this.report({ argv: [call.text], dynamic: [0], opaque: true, via: nestedVia, unseen: 'runtime' });
    }
  }

  /**
   * Script text a shell, `eval` or `source` runs. `positional`: the words after it
   * (`bash -c TEXT $0 $1 …`); undefined: not known. `stdin`: what its commands read (the
   * running program's own standard input: `npx -c sh <<EOF … EOF`).
   */
  nestedScript(textIn: ArgWord, label: string, via: readonly string[], ctx: Ctx, positional?: readonly ArgWord[], stdin: Stdin | null = null): void {
    let text = textIn;
    if (text.cmdSub !== undefined) {
      // `eval "$(printf …)"`, `bash -c "$(echo …)"`: the substitution's output, when literal.
      const out = this.scriptOutput(text.cmdSub, ctx.vars, 0);
      if (out !== null && !('file' in out) && !out.dynamic) text = { value: out.text.replace(/\n+$/, ''), dynamic: false, glob: false, start: text.start };
      // `eval "$(< x.sh)"`, `bash -c "$(cat x.sh)"`: the file's text is the script, read as `bash x.sh` reads it.
      else if (out !== null && 'file' in out) {
        this.file(out.file, label, false, via, ctx, positional?.slice(1));
        return;
      }
    }
    const nestedVia = [...via, label];
    const depth = ctx.depth + 1;
    if (depth > this.opts.maxDepth) {
      throw new ShellParseError('too_deep', `scripts nested deeper than ${this.opts.maxDepth} levels`, text.start);
    }
    const vars = label === 'eval' ? ctx.vars : ctx.vars.env(positional === undefined ? null : positionalOf(positional));
    if (!text.dynamic) {
      this.analyzeText(text.value, text.start, depth, nestedVia, vars, stdin);
      return;
    }
    // Run-time script text: what runs cannot be known; report it, with the arguments handed to
    // it (`bash -c "$X" _ push -f`: `$1 …`), then what the visible text shows.
    const shown = text.value.replace(/\n+$/, '');
    const whole: ShellCommand = { argv: [shown], dynamic: [0], opaque: true, via: nestedVia, unseen: 'runtime' };
    const from = this.textSources(textIn);
    if (from.length > 0) whole.script_from = dedupeSources(from);
    positional?.forEach((w) => {
      whole.argv.push(w.value);
      if (w.dynamic) whole.dynamic.push(whole.argv.length - 1);
    });
    this.report(whole);
    const mark = this.out.length;
    try {
      this.analyzeText(text.value, text.start, depth, nestedVia, vars, null);
    } catch (e) {
      if (!(e instanceof ShellParseError) || e.code === 'too_deep' || e.code === 'too_large' || e.code === 'too_complex') throw e;
      this.out.length = mark;
    }
    // `eval "$x"` shows `$x` again: keep one.
    for (let i = this.out.length - 1; i >= mark; i--) {
      const c = this.out[i] as ShellCommand;
      if (c.opaque && c.argv.length === 1 && c.argv[0] === shown && sameVia(c.via, nestedVia)) this.out.splice(i, 1);
    }
  }

  /**
   * The commands earlier on the line that wrote or named `pathValue` (a redirection into it, an
   * argument naming it, a URL whose last segment is its name: `wget https://x/install.sh`), with
   * the pipeline stages that fed them: the first MAX_SOURCES whose program is known, in order
   * (what sourcesOf keeps); null when none did. Compared as written (`./x.sh` and `x.sh` are one
   * path). Looked up in an index of the line's words made on first use and extended as the line
   * grows, and every step is charged: a line that runs many scripts stays linear.
   */
  writersOf(pathValue: string): ShellCommand[] | null {
    const ix = this.nameIndex();
    const key = samePath(pathValue);
    const targets = ix.targets.get(key);
    const named = ix.args.get(key);
    const urls = key.includes('/') ? undefined : ix.urls.get(key);
    if (targets === undefined && named === undefined && urls === undefined) return null;
    const by: ShellCommand[] = [];
    const seen = new Set<ShellCommand>();
    let steps = 0;
    const full = (): boolean => by.length >= MAX_SOURCES;
    const add = (c: ShellCommand): void => {
      steps++;
      if (!isProducer(c) || seen.has(c)) return;
      seen.add(c);
      by.push(c);
    };
    const withFed = (c: ShellCommand): void => {
      add(c);
      const fed = this.fedBy?.get(c);
      if (fed !== undefined) for (let k = fed.first; k < fed.end && !full(); k++) add(this.out[k] as ShellCommand);
    };
    for (const t of targets ?? []) {
      for (const c of (this.written[t] as { by: ShellCommand[] }).by) {
        if (full()) break;
        withFed(c);
      }
    }
    // The commands naming it, in their order on the line (two ascending lists merged).
    const a = named ?? [];
    const u = urls ?? [];
    for (let i = 0, j = 0; (i < a.length || j < u.length) && !full(); ) {
      // A command under both lists is added once (`seen`).
      const next = j >= u.length || (i < a.length && (a[i] as number) <= (u[j] as number)) ? (a[i++] as number) : (u[j++] as number);
      withFed(this.out[next] as ShellCommand);
    }
    this.work.charge(steps + 1, 'the commands that wrote the scripts run', 0);
    return by;
  }

  /** writersOf's index, brought up to date with what the line has reported and written so far. */
  private nameIndex(): NameIndex {
    const ix = (this.names ??= { out: 0, written: 0, args: new Map(), urls: new Map(), targets: new Map() });
    let units = 0;
    for (; ix.out < this.out.length; ix.out++) {
      const argv = (this.out[ix.out] as ShellCommand).argv;
      for (let i = 1; i < argv.length; i++) {
        const w = argv[i] as string;
        units += w.length + 2;
        indexAt(ix.args, samePath(w), ix.out);
        if (w.includes('://')) {
          const name = urlName(w);
          if (name !== null) indexAt(ix.urls, name, ix.out);
        }
      }
    }
    for (; ix.written < this.written.length; ix.written++) {
      const t = wordText((this.written[ix.written] as { target: Word }).target).value;
      units += t.length + 2;
      indexAt(ix.targets, samePath(t), ix.written);
    }
    if (units > 0) this.work.charge(units, 'the commands that wrote the scripts run', 0);
    return ix;
  }

  /** @internal (Unwrapping) A program file an interpreter runs: unseen when written or named earlier on the line. */
  programFile(path: ArgWord, label: string, via: readonly string[]): void {
    if (path.dynamic || path.glob) return;
    const writers = this.writersOf(path.value);
    if (writers !== null) this.report(unseenCommand(path.value, [...via, label], 'unreadable', [...(path.from ?? []), ...sourcesOf(writers, 'file')]));
  }

  /** What produced script text: its own record (stdin), and the commands substituted in it. */
  private textSources(text: ArgWord): ScriptSource[] {
    const subs = text.cmdSub !== undefined ? [text.cmdSub] : text.procSub !== undefined ? [text.procSub] : (text.subs ?? []);
    const from = [...(text.from ?? [])];
    for (const s of subs) from.push(...sourcesOf(this.subOut?.get(s) ?? [], 'substitution'));
    return from;
  }

  /** The commands substituted anywhere in a word (a here-document body, a `<<<` word). */
  private wordProducers(w: Word): ShellCommand[] {
    const out: ShellCommand[] = [];
    for (const p of w.parts) if (p.type === 'dyn') for (const sub of p.subs) out.push(...(this.subOut?.get(sub.body) ?? []));
    return out;
  }

  /** `stdin` with the commands that produced it recorded (none: unchanged). */
  private withSources(stdin: Stdin, cmds: readonly ShellCommand[], how: ScriptSource['how']): Stdin {
    const from = sourcesOf(cmds, how);
    return from.length === 0 ? stdin : { ...stdin, from: [...(stdin.from ?? []), ...from] };
  }

  /**
   * A script file a shell runs (`bash FILE`, `source FILE`, `./x.sh` with
   * `requireShebang`). One that cannot be read is an opaque command marked `unseen`.
   */
  file(path: ArgWord, label: string, requireShebang: boolean, via: readonly string[], ctx: Ctx, positional?: readonly ArgWord[]): void {
    const nestedVia = [...via, label];
    if (path.procSub !== undefined) {
      // `source <(…)`, `bash <(…)`: the script is the substitution's output.
      const out = this.scriptOutput(path.procSub, ctx.vars, 0);
      const from = sourcesOf(this.subOut?.get(path.procSub) ?? [], 'substitution');
      if (out !== null && 'file' in out) this.file(out.file, label, false, via, ctx, positional);
      else if (out === null) this.report(unseenCommand(path.value, nestedVia, 'runtime', from));
      else {
        const text: ArgWord = { value: out.text, dynamic: out.dynamic, glob: false, start: path.start, from };
        this.nestedScript(text, label, via, ctx, positional === undefined ? undefined : [path, ...positional]);
      }
      return;
    }
    const read = this.opts.readScript;
    if (path.dynamic || path.glob) {
      // `bash "$f"`: a script known only at run time (a program named so is already opaque).
      if (!requireShebang && read !== undefined) this.report(unseenCommand(path.value, nestedVia, 'runtime'));
      return;
    }
    // Written earlier on this line (`echo … > x.sh; bash x.sh`), or named by an earlier command
    // (`curl -o x.sh`, `cp a x.sh`, `wget URL/x.sh`): what runs may not be what is on disk now.
    const writers = this.writersOf(path.value);
    const rewritten = writers !== null;
    if (writers !== null) this.report(unseenCommand(path.value, nestedVia, 'unreadable', [...(path.from ?? []), ...sourcesOf(writers, 'file')]));
    if (read === undefined) return;
    if (this.scriptsRead >= this.opts.maxScripts) {
      if (!rewritten) this.report(unseenCommand(path.value, nestedVia, 'unreadable'));
      return;
    }
    this.scriptsRead++;
    const text = read(path.value);
    if (text === null) {
      // Missing, too large, a FIFO or device. Run directly, a missing file runs nothing.
      if (!requireShebang && !rewritten) this.report(unseenCommand(path.value, nestedVia, 'unreadable'));
      return;
    }
    // Run directly: a shell shebang, or no `#!` at all (bash runs a non-binary file as a script).
    if (requireShebang && !(SHEBANG_SHELL.test(text) || (!text.startsWith('#!') && !looksBinary(text)))) return;
    // A script may use at most half the work left; past that (or over the size limit) it cannot
    // be analysed, like a script that cannot be read. Each later script gets half of what then
    // remains, so all of them together stay within the budget.
    const outer = this.work.max;
    const share = Math.floor(this.work.left / 2);
    if (PARSE_COST * text.length >= share || utf8Length(text) > this.opts.maxBytes) {
      if (!rewritten) this.report(unseenCommand(path.value, nestedVia, 'unreadable'));
      return;
    }
    const depth = ctx.depth + 1;
    if (depth > this.opts.maxDepth) {
      throw new ShellParseError('too_deep', `scripts nested deeper than ${this.opts.maxDepth} levels`, path.start);
    }
    const mark = this.out.length;
    this.work.max = this.work.counter.used + share;
    let failed: ShellParseError | null = null;
    try {
      const pos = positional === undefined ? null : positionalOf([path, ...positional]);
      this.analyzeText(text, 0, depth, nestedVia, ctx.vars.env(pos), null);
    } catch (e) {
      if (!(e instanceof ShellParseError)) throw e;
      failed = e;
    } finally {
      this.work.max = outer;
    }
    if (failed === null) return;
    const overShare = failed.code === 'too_complex' && this.work.counter.used <= outer;
    if (!overShare && (failed.code === 'too_deep' || failed.code === 'too_large' || failed.code === 'too_complex')) {
      const msg = failed.code === 'too_complex' ? failed.message.replace(/limit of \d+/, `limit of ${outer}`) : failed.message;
      throw new ShellParseError(failed.code, `${path.value}: ${msg}`, path.start);
    }
    // bash runs a script up to its syntax error (and one past its share of the work cannot be
    // listed either): what runs there is unknown.
    this.out.length = mark;
    if (overShare) this.report(unseenCommand(path.value, nestedVia, 'unreadable'));
    else this.report({ argv: [path.value], dynamic: [], opaque: true, via: nestedVia });
  }

}

const argValue = (a: ArgWord): string => a.value;

/** Combinations of alternatives judged per command; more: each word's alternatives alone. */
export const MAX_COMBINATIONS = 16;

/**
 * The argvs a command may have when its dynamic words take their literal alternatives: every
 * combination when there are at most MAX_COMBINATIONS, else each word's alternatives with the
 * other words as written (every alternative still judged once).
 */
function* alternativeArgvs(args: readonly ArgWord[], charge: () => void): Generator<ArgWord[]> {
  const at: number[] = [];
  let product = 1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]?.alts;
    if (a === undefined) continue;
    at.push(i);
    product *= a.length;
  }
  const build = (pick: ReadonlyMap<number, ArgWord[]>): ArgWord[] => {
    charge();
    const out: ArgWord[] = [];
    for (let i = 0; i < args.length; i++) {
      const p = pick.get(i);
      if (p !== undefined) out.push(...p);
      else out.push(args[i] as ArgWord);
    }
    return out;
  };
  if (product > MAX_COMBINATIONS) {
    for (const i of at) for (const alt of args[i]?.alts ?? []) yield build(new Map([[i, alt]]));
    return;
  }
  let partial: Array<Map<number, ArgWord[]>> = [new Map()];
  for (const i of at) {
    const next: Array<Map<number, ArgWord[]>> = [];
    for (const m of partial) for (const alt of args[i]?.alts ?? []) next.push(new Map(m).set(i, alt));
    partial = next;
  }
  for (const m of partial) yield build(m);
}

const sameVia = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

const EMPTY_WORD: Word = { parts: [], start: 0, end: 0 };

/**
 * `$0 $1 …` from the words after a script (a run-time or glob word: that parameter is unknown);
 * none given: `$0` is unknown (the shell's name), no other parameter.
 */
function positionalOf(words: readonly ArgWord[]): Array<string | null> {
  return words.length === 0 ? [null] : words.map((w) => (w.dynamic || w.glob ? null : w.value));
}

/** The opaque command standing for a program read from standard input that is not known. */
function unseenStdin(prog: string, via: string[], from: readonly ScriptSource[] | undefined): ShellCommand {
  const cmd: ShellCommand = { argv: [prog], dynamic: [0], opaque: true, via, unseen: 'runtime' };
  if (from !== undefined && from.length > 0) cmd.script_from = dedupeSources(from);
  return cmd;
}

function unseenCommand(what: string, via: readonly string[], why: 'runtime' | 'unreadable', from?: readonly ScriptSource[]): ShellCommand {
  const cmd: ShellCommand = { argv: [what], dynamic: why === 'runtime' ? [0] : [], opaque: true, via: via.slice(), unseen: why };
  if (from !== undefined && from.length > 0) cmd.script_from = dedupeSources(from);
  return cmd;
}

/** At most this many producers are recorded per script (the first ones on the line). */
const MAX_SOURCES = 32;

/** What writersOf looks paths up in: positions in `Analyzer.out` / `written`, ascending. */
interface NameIndex {
  /** `out` is indexed below this position, `written` below `written`. */
  out: number;
  written: number;
  /** samePath of each argument word (not argv[0]) → the commands holding it. */
  args: Map<string, number[]>;
  /** The last segment of each URL argument → the commands holding it. */
  urls: Map<string, number[]>;
  /** samePath of each writing redirection's target → its entries in `written`. */
  targets: Map<string, number[]>;
}

function indexAt(map: Map<string, number[]>, key: string, at: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [at]);
  else if (list[list.length - 1] !== at) list.push(at);
}

/** A command that can be a producer (sourcesOf): its program is known. */
const isProducer = (c: ShellCommand): boolean => !c.opaque && c.argv.length > 0;

/**
 * The producers among `out[first, end)` (the first MAX_SOURCES), for a pipeline's stages: each
 * stage asks with a larger `end`; the scan goes on from where it stopped (linear per pipeline).
 */
class Producers {
  private at: number;
  private readonly found: Array<{ at: number; cmd: ShellCommand }> = [];
  constructor(
    private readonly out: readonly ShellCommand[],
    first: number,
    private readonly work: WorkBudget,
  ) {
    this.at = first;
  }

  before(end: number): ShellCommand[] {
    const from = this.at;
    for (; this.at < end && this.found.length < MAX_SOURCES; this.at++) {
      const c = this.out[this.at] as ShellCommand;
      if (isProducer(c)) this.found.push({ at: this.at, cmd: c });
    }
    this.work.charge(this.at - from + 1, 'the commands that wrote the scripts run', 0);
    const out: ShellCommand[] = [];
    for (const f of this.found) if (f.at < end) out.push(f.cmd);
    return out;
  }
}

/** Producers as ScriptSource: commands whose program is known (an opaque one names nothing). */
export function sourcesOf(cmds: readonly ShellCommand[], how: ScriptSource['how']): ScriptSource[] {
  const out: ScriptSource[] = [];
  for (const c of cmds) {
    if (!isProducer(c)) continue;
    if (out.length >= MAX_SOURCES) break;
    out.push({ argv: c.argv, dynamic: c.dynamic, how });
  }
  return out;
}

function dedupeSources(from: readonly ScriptSource[]): ScriptSource[] {
  const out: ScriptSource[] = [];
  for (const s of from) {
    if (out.length >= MAX_SOURCES) break;
    if (!out.some((o) => o.how === s.how && o.argv === s.argv)) out.push(s);
  }
  return out;
}

/** The last path segment of a URL (`https://x/a/install.sh?x=1` → `install.sh`), or null. */
function urlName(word: string): string | null {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*\/(?:[^?#]*\/)?([^/?#]+)(?:[?#].*)?$/.exec(word);
  return m?.[1] ?? null;
}

/** An unquoted `{` (brace expansion may apply). */
function hasBrace(w: Word): boolean {
  return w.parts.some((p) => p.type === 'lit' && !p.quoted && p.text.includes('{'));
}

type Positional = ReadonlyArray<string | null> | null;

/**
 * The positional parameters after `set …`: `set -- a b`, `set a b`, `set -e x` replace them
 * (`$0` stays); `set -e`, `set -o x` leave them (undefined). A run-time option word: unknown.
 */
function setPositional(args: ArgWord[], pos: Positional): Positional | undefined {
  for (let i = 1; i < args.length; i++) {
    const w = args[i] as ArgWord;
    if (w.dynamic) return null;
    if (w.value === '--' || w.value === '-') return [pos?.[0] ?? null, ...positionalOf(args.slice(i + 1))];
    if (!/^[-+]/.test(w.value)) return [pos?.[0] ?? null, ...positionalOf(args.slice(i))];
    // `-o NAME`, also bundled (`set -euo pipefail`): the next word is the option's name.
    if (w.value.includes('o')) i++;
  }
  return undefined;
}

/** `shift [N]`: the known parameters moved, or unknown. */
function shiftPositional(args: ArgWord[], pos: Positional): Positional {
  const n = args.length === 1 ? 1 : args.length === 2 && /^[0-9]+$/.test(args[1]?.value ?? '') && args[1]?.dynamic === false ? Number(args[1]?.value) : -1;
  if (pos === null || n < 0) return null;
  // bash leaves them unchanged when N is larger than their count.
  return n > pos.length - 1 ? pos : [pos[0] ?? null, ...pos.slice(1 + n)];
}

/** A redirection redirStdin looks at: `<`, `<<<` or a here-document on fd 0. */
const readsStdin = (r: Redir): boolean => (r.fd === '' || r.fd === '0') && (r.heredoc !== null || r.op === '<<<' || r.op === '<');

function toCommand(prog: string, args: ArgWord[], via: readonly string[], opaque: boolean): ShellCommand {
  // `map` makes an array of the exact size (push would reserve 17 slots).
  const argv = args.length === 0 ? [prog] : args.map(argValue);
  argv[0] = prog;
  const dynamic: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as ArgWord;
    if (a.dynamic || (i === 0 && a.glob)) dynamic.push(i);
  }
  const cmd: ShellCommand = { argv, dynamic, opaque, via: via.length === 0 ? [] : via.slice() };
  for (let i = 1; i < args.length; i++) if ((args[i] as ArgWord).qtilde === true) (cmd.quoted_tilde ??= []).push(i);
  return cmd;
}

// ---- paths: the command's directory and its redirections ----------------------------------------

interface Walk {
  replace: string;
  under: PathWord[];
}

/**
 * A walker's starting points (`find DIR… -exec CMD {} ;`, from its data: `runs.exec_options`
 * with a `replace` string, and the `files` it reads): what the replacement words stand for.
 */
function walkOf(g: ProgramGrammar, args: ArgWord[], prog: string, runs: readonly Run<ArgWord>[]): Walk | undefined {
  const replace = g.runs?.replace;
  if (g.runs?.exec_options === undefined || replace === undefined || replace === '' || !runs.some((r) => r.kind === 'command')) return undefined;
  const files = readWords(args, g, prog, 'all').files;
  return { replace, under: files.map((f) => ({ value: f.word.value, dynamic: f.word.dynamic || f.word.glob })) };
}

/** The key the line's working directory is kept under in Vars (no variable can have this name). */
const CWD = ' cwd';
/** Marks a kept directory whose text holds a run-time part (`cd "$HOME/x"`). */
const DYN = '\u0001';

function cwdOf(vars: Vars): PathWord | null | undefined {
  const v = vars.get(CWD);
  if (v === undefined || v === null) return v;
  return v.startsWith(DYN) ? { value: v.slice(1), dynamic: true } : { value: v, dynamic: false };
}

function withCwd(cmd: ShellCommand, vars: Vars): ShellCommand {
  if (!('cwd' in cmd)) {
    const cwd = cwdOf(vars);
    if (cwd !== undefined) cmd.cwd = cwd;
  }
  return cmd;
}

/** A path that does not depend on the directory it is read in: `/x`, `~`, `~/x`, `$HOME/x`. */
/**
 * `/^(?:\/|~(?:\/|$)|\$\{?(?:HOME|TMPDIR)\}?(?:\/|$))/`, without a regular expression: `cd` is
 * in many agent command lines, and a hook would compile it every time (a test checks the two agree).
 */
export function isRooted(v: string): boolean {
  if (v.startsWith('/')) return true;
  if (v.startsWith('~')) return v.length === 1 || v[1] === '/';
  if (!v.startsWith('$')) return false;
  let i = 1;
  const brace = v[1] === '{';
  if (brace) i = 2;
  let name: string;
  if (v.startsWith('HOME', i)) name = 'HOME';
  else if (v.startsWith('TMPDIR', i)) name = 'TMPDIR';
  else return false;
  i += name.length;
  // `${?` and `}?` are independent in the expression: `$HOME}` and `${HOME` match too.
  if (v[i] === '}') i++;
  return i === v.length || v[i] === '/';
}

/** `-L`, `-P`, `-e`, `-@` and their combinations: `cd`'s options (`/^-[LPe@]+$/`). */
export function isCdOptions(v: string): boolean {
  if (v.length < 2 || v[0] !== '-') return false;
  for (let i = 1; i < v.length; i++) if (!'LPe@'.includes(v[i] as string)) return false;
  return true;
}

/** `cd DIR`, `pushd DIR`, `popd`: the directory later commands of this shell run in. */
function changeDir(prog: string, args: ArgWord[], vars: Vars, cond: boolean): void {
  let target: ArgWord | undefined;
  let i = 1;
  while (i < args.length && isCdOptions(args[i]?.value ?? '')) i++;
  if (args[i]?.value === '--') i++;
  target = args[i];
  if (cond || prog === 'popd' || target?.value === '-' || (prog === 'pushd' && target !== undefined && /^[+-]\d+$/.test(target.value))) {
    vars.set(CWD, null);
    return;
  }
  const t = target === undefined ? (prog === 'cd' ? { value: '~', dynamic: false } : null) : target;
  if (t === null || (target?.glob ?? false)) {
    vars.set(CWD, null);
    return;
  }
  const value = t.value;
  if (t.dynamic && !(isRooted(value) && value.startsWith('$'))) {
    vars.set(CWD, null);
    return;
  }
  if (isRooted(value) && (target?.qtilde !== true || !value.startsWith('~'))) {
    vars.set(CWD, (t.dynamic ? DYN : '') + value);
    return;
  }
  const prev = vars.get(CWD);
  if (prev === null) return;
  vars.set(CWD, prev === undefined ? (value === '' ? '.' : value) : `${prev}/${value}`);
}

const WRITES: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>']);

/** The files `redirs` name (`> f`, `< f`, …); null when none. Duplications (`2>&1`) are not files. */
function redirFiles(redirs: readonly Redir[], vars: Vars): RedirFile[] | null {
  let out: RedirFile[] | null = null;
  for (const r of redirs) {
    if (r.target === null || r.heredoc !== null) continue;
    // `< <(cmd)`, `> >(cmd)`: a pipe to a command, not a file.
    if (r.target.parts.length === 1 && r.target.parts[0]?.type === 'dyn' && r.target.parts[0].kind === 'procsub') continue;
    let access: 'read' | 'write' | 'both' | null = null;
    if (WRITES.has(r.op)) access = 'write';
    else if (r.op === '<') access = 'read';
    else if (r.op === '<>') access = 'both';
    else if (r.op === '>&' && r.fd === '') access = 'write';
    if (access === null) continue;
    const ws = expandWord(r.target, vars, false);
    const w = ws[0];
    if (access === 'write' && r.op === '>&' && w !== undefined && !w.dynamic && /^(?:\d+|-)$/.test(w.value)) continue;
    const word: PathWord = ws.length === 1 && w !== undefined ? { value: w.value, dynamic: w.dynamic || w.glob } : { value: ws.map((x) => x.value).join(' '), dynamic: true };
    const push = (a: 'read' | 'write'): void => {
      (out ??= []).push(w?.qtilde === true ? { ...word, access: a, quoted_tilde: true } : { ...word, access: a });
    };
    if (access === 'both') {
      push('read');
      push('write');
    } else push(access);
  }
  return out;
}

function decodeEchoEscapes(s: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v', e: '\x1b' };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s.charAt(i + 1);
    if (n === 'c') return out;
    const m = map[n];
    if (m !== undefined) {
      out += m;
      i++;
    } else if (n === '0' || n === 'x') {
      const re = n === '0' ? /^0([0-7]{0,3})/ : /^x([0-9a-fA-F]{1,2})/;
      const mm = re.exec(s.slice(i + 1));
      if (mm === null) {
        out += c;
        continue;
      }
      out += String.fromCharCode(parseInt(mm[1] === '' ? '0' : (mm[1] ?? '0'), n === '0' ? 8 : 16));
      i += mm[0].length;
    } else out += c;
  }
  return out;
}

/** printf with only `%s`, `%b`, `%%` and backslash escapes; null for anything else. */
function simplePrintf(fmt: string, args: string[]): string | null {
  if (/%[^sb%]/.test(fmt.replace(/%%/g, ''))) return null;
  const conversions = (fmt.match(/%[sb]/g) ?? []).length;
  let out = '';
  let k = 0;
  do {
    out += decodeEchoEscapes(
      fmt.replace(/%%|%[sb]/g, (m) => {
        if (m === '%%') return '%';
        const a = args[k++] ?? '';
        return m === '%b' ? a : a.replace(/\\/g, '\\\\');
      }),
    );
  } while (conversions > 0 && k < args.length);
  return out;
}
