/**
 * The walk: the syntax tree → every simple command that could run, commands nested in
 * expansions, compound bodies and function bodies included. The walk's parts, by job (as
 * mvdan/sh's interp/ splits its runner): context.ts (the context, standard input types, the
 * `Walker` the parts call back into), builtins.ts (variables, `cd`, positional parameters, what
 * `echo`/`printf`/`cat`/`tee` print), stdin.ts (redirections, pipes, what producers print),
 * provenance.ts (which earlier command wrote or fetched a script), run.ts (what programs run,
 * read from their data by the one reader in src/grammars; nested scripts; script files) and
 * calls.ts (calls of the functions and aliases the line defines).
 */
import type { Command, Redir, Script, SimpleCommand, Word } from './ast.ts';
import { Assigned, varEffects, withCwd } from './builtins.ts';
import { Calls } from './calls.ts';
import { type AnalyzeOptions, type Ctx, NO_STDIN, type Stdin, type StdinThunk, type Walker, WRITTEN_INTO, checkDepth, memo, mkCtx } from './context.ts';
import { Parser } from './parser.ts';
import { type Producers, Provenance, withSources } from './provenance.ts';
import { Runner } from './run.ts';
import { StdinReader, readsStdin, redirFiles } from './stdin.ts';
import type { ShellCommand } from './types.ts';
import { type ArgWord, MAX_ALTERNATIVES, type Vars, assignValue, expandWordInto } from './word-value.ts';
import { COMMAND_COST, WORD_COST, WorkBudget } from './work.ts';

// (Where redir-operator.test.ts finds them; they live in builtins.ts.)
export { isCdOptions, isRooted } from './builtins.ts';

/** Redirections that write a file (their literal targets may be scripts run later on the line). */
const WRITING_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

export class Analyzer implements Walker {
  readonly out: ShellCommand[] = [];
  readonly work: WorkBudget;
  private readonly assigned = new Assigned();
  private readonly prov: Provenance;
  private readonly input: StdinReader;
  private readonly calls: Calls;
  private readonly runner: Runner;

  constructor(readonly opts: AnalyzeOptions) {
    this.work = new WorkBudget(opts.work, opts.maxWork);
    this.prov = new Provenance(this);
    this.input = new StdinReader(this, this.prov);
    this.calls = new Calls(this);
    this.runner = new Runner(this, this.prov, this.input, this.calls);
  }

  /**
   * Every variable the line may assign, with each value it may get (builtins.ts's Assigned);
   * null until something is assigned.
   */
  get assignments(): Map<string, (string | null)[]> | null {
    return this.assigned.map;
  }

  /** Reports a command; each one costs work (the caller judges every command reported). */
  report(cmd: ShellCommand): void {
    // The producers a script records (script_from, at most MAX_SOURCES) were found and compared too.
    this.work.charge(COMMAND_COST + cmd.argv.length + (cmd.script_from === undefined ? 0 : 16 * cmd.script_from.length), 'the commands found', 0);
    this.out.push(cmd);
  }

  /** expandWordInto, charging every word and character it makes (brace and variable expansion). */
  expand(w: Word, vars: Vars, out: ArgWord[], braces = true): void {
    const from = out.length;
    expandWordInto(w, vars, out, braces);
    // Words made by brace expansion cost twice: each was copied atom by atom (measured).
    const per = out.length - from > 1 ? 2 * WORD_COST : WORD_COST;
    let units = 0;
    for (let i = from; i < out.length; i++) units += (out[i] as ArgWord).value.length + per;
    this.work.charge(units, 'expanding words', w.start);
  }

  /** assignValue, charging the value it builds (`B=$A` copies). */
  chargedAssign(w: Word, vars: Vars): { value: string; dynamic: boolean } {
    const v = assignValue(w, vars);
    this.work.charge(v.value.length + WORD_COST, 'expanding words', w.start);
    return v;
  }

  innermost(args: ArgWord[]): ArgWord[] {
    return this.runner.innermost(args);
  }

  /** Parses `text` (nested at `depth`) and reports its commands. */
  analyzeText(text: string, base: number, depth: number, via: readonly string[], vars: Vars, stdin: Stdin | null): void {
    checkDepth(this.opts.maxDepth, depth, base);
    const budget = { maxDepth: this.opts.maxDepth, maxNesting: this.opts.maxNesting, nesting: 0, work: this.work };
    const script = Parser.parse(text, base, budget, depth);
    this.script(script, mkCtx(via, depth, vars, false, stdin === null ? NO_STDIN : () => stdin));
  }

  // ---- tree walk ----------------------------------------------------------------------------

  script(s: Script, ctx: Ctx): void {
    for (const item of s.items) {
      const c = item.async ? mkCtx(ctx.via, ctx.depth, ctx.vars.child(), true, ctx.stdin) : ctx;
      // Pipelines after `&&`/`||` run conditionally (same variables; made once, when needed).
      let after: Ctx | null = c.cond ? c : null;
      let i = 0;
      for (const p of item.andOr.pipelines) {
        const pc = i++ === 0 ? c : (after ??= mkCtx(c.via, c.depth, c.vars, true, c.stdin));
        const timed = p.time ? mkCtx([...pc.via, 'time'], pc.depth, pc.vars, pc.cond, pc.stdin) : pc;
        if (p.commands.length === 1) this.command(p.commands[0] as Command, timed);
        else this.pipeline(p.commands, timed);
      }
    }
  }

  /** A pipeline of two or more commands: each stage reads what the one before it prints. */
  private pipeline(cmds: readonly Command[], timed: Ctx): void {
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
        stage.stdin = memo(() => withSources(this.input.pipeStdin(from, timed.vars, fromIn), (feeders ??= this.prov.producers(first)).before(end), 'pipe'));
      }
      this.command(cmd, stage);
      // `curl … | tee x.sh`: what a later stage writes into a file comes from the earlier ones.
      if (from !== undefined && this.out.length > end) this.prov.fed(first, end);
      prev = cmd;
      prevIn = stage.stdin;
    }
  }

  command(c: Command, ctx: Ctx): void {
    if (c.type === 'function') {
      this.calls.defineFunction(c, ctx);
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
    const stdin = this.input.stdinOf(c.redirs, ctx);
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
      this.assigned.add(c.name, null);
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
        this.prov.substituted(sub.body, mark);
      }
    }
  }

  private redirSubs(redirs: Redir[], ctx: Ctx): void {
    for (const r of redirs) {
      if (r.target !== null && r.heredoc === null) {
        this.wordSubs(r.target, ctx);
        if (WRITING_OPS.has(r.op)) this.prov.written.push({ target: r.target, by: [] });
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
    const writes = this.prov.written.length;
    this.redirSubs(cmd.redirs, ctx);

    for (const a of cmd.assigns) {
      if (a.index !== null || a.value === null) continue;
      const v = this.chargedAssign(a.value, ctx.vars);
      this.assigned.add(a.name, v.dynamic ? null : v.value);
    }
    const files = cmd.redirs.length === 0 ? null : redirFiles(cmd.redirs, ctx.vars);
    if (cmd.words.length === 0) {
      this.assignmentsOnly(cmd, files, ctx);
      return;
    }
    const args: ArgWord[] = [];
    for (const w of cmd.words) this.expand(w, ctx.vars, args);
    const run = cmd.assigns.length > 0 ? this.prefixed(cmd, ctx) : ctx;
    this.assigned.addArguments(args);
    const mark = this.out.length;
    const stdin = this.input.stdinOf(cmd.redirs, ctx);
    this.runner.unwrap(args, ctx.via, stdin, run);
    // Words with literal alternatives: the command once more per combination of them.
    for (let i = 0; i < args.length; i++) {
      if ((args[i] as ArgWord).alts !== undefined) {
        // Built one at a time and charged first: a long command cannot multiply before the budget answers.
        for (const alt of alternativeArgvs(args, () => this.work.charge(COMMAND_COST + args.length, 'the commands found', 0))) {
          this.runner.unwrap(alt, ctx.via, stdin, run);
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
    // `cat >> f <<EOF … EOF`, `tee f <<< TEXT`: the text it reads is what it writes (`text_contains`).
    if (this.out.length > mark && cmd.redirs.some(readsText)) {
      const s = stdin();
      if (s?.kind === 'text') (this.out[mark] as ShellCommand).stdin_text = s.text;
    }
    // `curl URL > x.sh`: the command wrote the redirection's target.
    this.prov.wroteBy(writes, mark);
    varEffects(this, this.assigned, args, cmd.words, ctx);
  }

  /** `A=1 B=$A`, `> f` alone: assignments to the shell's variables (and a truncated file). */
  private assignmentsOnly(cmd: SimpleCommand, files: ReturnType<typeof redirFiles>, ctx: Ctx): void {
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
  }

  /** `X=v cmd`: X is exported to cmd (a nested shell sees it) and to `eval`; not to this line. */
  private prefixed(cmd: SimpleCommand, ctx: Ctx): Ctx {
    const v = ctx.vars.child();
    for (const a of cmd.assigns) {
      const val = a.value === null || a.index !== null ? null : this.chargedAssign(a.value, ctx.vars);
      v.set(a.name, val !== null && !val.dynamic ? val.value : null);
    }
    return mkCtx(ctx.via, ctx.depth, v, ctx.cond, ctx.stdin);
  }
}

/** Combinations of alternatives judged per command; more: each word's alternatives alone. */
export const MAX_COMBINATIONS = 16;

/**
 * The argvs a command may have when its dynamic words take their literal alternatives: every
 * combination when there are at most MAX_COMBINATIONS, else each word's alternatives with the
 * other words as written (every alternative still judged once).
 */
export function* alternativeArgvs(args: readonly ArgWord[], charge: () => void): Generator<ArgWord[]> {
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

/** A here-document or here-string on standard input (`<<EOF`, `<<<`). */
const readsText = (r: Redir): boolean => readsStdin(r) && r.op !== '<';
