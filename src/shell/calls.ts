/**
 * Calls of the functions and aliases a line defines (`f() { git push "$@"; }; f -f`,
 * `alias p='git push'` then `p -f`): each call walked once more with its arguments, what was
 * found already not reported twice, no recursion.
 */
import type { Command, FunctionDef } from './ast.ts';
import { positionalOf } from './builtins.ts';
import { type Ctx, type StdinThunk, type Walker, mkCtx } from './context.ts';
import { Parser } from './parser.ts';
import type { ShellCommand } from './types.ts';
import { type ArgWord, literalArg } from './word-value.ts';
import { COMMAND_COST, WORD_COST } from './work.ts';

type Definition = { body: Command } | { alias: string; start: number };

export class Calls {
  /**
   * Shell functions and aliases the line defines, by name (`f() { …; }`, `alias p='git push'`),
   * for the commands that call them later on the line; null until one is defined.
   */
  private defined: Map<string, Definition> | null = null;
  /**
   * Calls being expanded now (no recursion) and those done (each name and arguments once); also
   * the environment variables whose value is being followed (run.ts's envRuns).
   */
  private calling: Set<string> | null = null;
  /** `dropRepeats`'s first index of each command of `out[0…upTo)`; `last`: `out[upTo - 1]` then, to see that `out` was not cut back since. */
  private seen: { first: Map<string, number>; upTo: number; last: ShellCommand | undefined } | null = null;

  constructor(private readonly w: Walker) {}

  /** The calls being expanded or done, and the variables being followed (made on first use). */
  get active(): Set<string> {
    return (this.calling ??= new Set());
  }

  /** Whether the line defined a function or alias `name` so far. */
  defines(name: string): boolean {
    return this.defined !== null && this.defined.has(name);
  }

  /** `alias NAME=VALUE`: VALUE runs where NAME is used later on the line. */
  defineAlias(name: string, text: string, start: number): void {
    (this.defined ??= new Map()).set(name, { alias: text, start });
  }

  /** `f() { …; }`: defined, and its body walked here with its arguments unknown. */
  defineFunction(c: FunctionDef, ctx: Ctx): void {
    (this.defined ??= new Map()).set(c.name, { body: c.body });
    // A function's `$1`, `"$@"` are its call's arguments, not the script's: unknown here, and
    // the arguments of each call later on the line (`call`).
    const fv = ctx.vars.child();
    fv.setPositional(null);
    // (A call of itself in its body is not followed: see `call`.)
    const calling = this.active;
    const active = !calling.has(`${c.name}\0`);
    calling.add(`${c.name}\0`);
    try {
      this.w.command(c.body, mkCtx(ctx.via, ctx.depth, fv, true, ctx.stdin));
    } finally {
      if (active) calling.delete(`${c.name}\0`);
    }
    // `f() { v=-f; }; f; git push $v`: what the body assigns may hold after a call.
    ctx.vars.absorbMaybe(fv);
  }

  /**
   * A call of a function or an alias the line defined: its body, or the alias's text followed
   * by the call's words, walked once more with `$1 …` set to the call's arguments. The body was
   * already walked where it was defined, with its arguments unknown; this sees what a literal
   * call makes of it. A name calling itself is not followed again (bash stops an alias there,
   * and a recursive function repeats what was seen); each name with the same arguments is
   * walked once, and every walk is charged to the line's work budget.
   */
  call(name: string, args: readonly ArgWord[], via: readonly string[], stdin: StdinThunk, ctx: Ctx): void {
    const def = this.defined?.get(name);
    if (def === undefined) return;
    const positional = positionalOf([literalArg(name, args[0]?.start), ...args.slice(1)]);
    const key = `${name}\0${positional.map((p) => (p === null ? '\u0001' : p)).join('\0')}`;
    const calling = this.active;
    if (calling.has(key) || calling.has(`${name}\0`)) return;
    calling.add(key);
    calling.add(`${name}\0`);
    const w = this.w;
    w.work.charge(COMMAND_COST + args.length, 'calls of functions and aliases', args[0]?.start ?? 0);
    const vars = ctx.vars.child();
    vars.setPositional(positional);
    const mark = w.out.length;
    try {
      if ('body' in def) w.command(def.body, mkCtx(ctx.via, ctx.depth, vars, ctx.cond, stdin));
      else {
        // Alias expansion is textual: the value, then the rest of the command's words.
        const budget = { maxDepth: w.opts.maxDepth, maxNesting: w.opts.maxNesting, nesting: 0, work: w.work };
        const script = Parser.parse(`${def.alias} "$@"`, def.start, budget, ctx.depth + 1);
        w.script(script, mkCtx([...via, `alias ${name}`], ctx.depth + 1, vars, ctx.cond, stdin));
      }
    } finally {
      calling.delete(`${name}\0`);
    }
    // What the walk where the body was defined found already is not reported twice.
    if (w.out.length > mark) this.dropRepeats(mark);
    // What the body assigns may hold after the call.
    ctx.vars.absorbMaybe(vars);
  }

  /**
   * Removes from `out[from…]` the commands equal to one reported before it (or earlier in it).
   * `seen` maps each command's key to the index where it first appears in `out[0…upTo)`, kept
   * between calls and extended, so that a line of many calls, or of calls nested many deep, stays
   * linear (each call keys its own output once); when `out` was cut back in between (a walk
   * undone), it is made again.
   */
  dropRepeats(from: number): void {
    const out = this.w.out;
    let seen = this.seen;
    if (seen === null || seen.upTo > out.length || (seen.upTo > 0 && out[seen.upTo - 1] !== seen.last)) {
      seen = this.seen = { first: new Map(), upTo: 0, last: undefined };
    }
    // Keying a command is work like reporting one: a call nested N deep keys its output N times.
    this.w.work.charge(WORD_COST * (out.length - Math.min(from, seen.upTo)), 'calls of functions and aliases', 0);
    for (; seen.upTo < from; seen.upTo++) {
      const key = JSON.stringify(out[seen.upTo]);
      if (!seen.first.has(key)) seen.first.set(key, seen.upTo);
    }
    let k = from;
    for (let i = from; i < out.length; i++) {
      const c = out[i] as ShellCommand;
      const key = JSON.stringify(c);
      const at = seen.first.get(key);
      if (at !== undefined && at < k) continue;
      out[k] = c;
      seen.first.set(key, k);
      k++;
    }
    out.length = k;
    seen.upTo = k;
    seen.last = out[k - 1];
  }
}
