/**
 * The work budget of one analysis. Every step whose cost an input can multiply is charged
 * here, across the whole analysis (nested `bash -c`/`eval` text, here-documents, backticks,
 * script files, and the core's second look at git aliases when it passes the same counter):
 * characters of shell text parsed, words and characters made by expansion (brace expansion,
 * variables substituted again and again), steps through wrappers, commands reported. Depth
 * bounds alone leave products open (`echo {1..1000} {1..1000} …`, `x=<30 KB>; eval "$x";
 * eval "$x"; …`); one total keeps the analysis linear in the size of the input.
 */
import { ShellParseError } from './types.ts';

/** A counter the caller may share between several analyses (the core does for git aliases). */
export interface ShellWork {
  used: number;
}

/**
 * Units allowed per analysis by default. The weights below are measured costs relative to each
 * other (docs/performance.md): a unit is roughly 25 ns of warm analysis and judging on the
 * benchmark machine, so the costliest inputs that stay inside take well under 50 ms, while a
 * realistic 64 KiB script uses about 60 % of it.
 */
export const DEFAULT_MAX_WORK = 1 << 20;
/** Units per character of shell text parsed (each nested text again). */
export const PARSE_COST = 2;
/** Units per simple command parsed (before it is reported: the parse comes first). */
export const PARSE_COMMAND_COST = 64;
/** Units per command substitution, process substitution or backtick body parsed. */
export const SUBST_COST = 64;
/** Units per word made by expansion, plus one per character. */
export const WORD_COST = 16;
/** Units per command reported, plus one per word (the core then judges each command). */
export const COMMAND_COST = 128;
/**
 * Units per word each time a wrapper hands the rest of the words on (`find -exec find -exec …`
 * reads them again at every level). Measured: at 1 unit, 370 nested `find -exec` in 15 KB (found
 * by the million-input fuzz) took about 200 ms of CPU to reach the budget; at 16, 25–40 ms on
 * the loaded 2-core VM.
 */
export const UNWRAP_WORD_COST = 16;

export class WorkBudget {
  constructor(
    readonly counter: ShellWork,
    /** The limit; lowered for a while to give a script file its share (Analyzer.file). */
    public max: number,
  ) {}

  get left(): number {
    return this.max - this.counter.used;
  }

  /** Adds `units`; past the budget, fails closed with `too_complex`, naming what crossed it. */
  charge(units: number, what: string, at: number): void {
    this.counter.used += units;
    if (this.counter.used > this.max) {
      throw new ShellParseError(
        'too_complex',
        `command needs too much analysis: ${what} went past the limit of ${this.max} units of work ` +
          '(characters parsed, counting text that bash -c, eval, here-documents and scripts parse again; ' +
          'words made by brace and variable expansion; commands found)',
        at,
      );
    }
  }
}
