/**
 * Shell analysis: a command line → every simple command that could run, as clean argv, with
 * what programs run (read from program data, src/grammars) followed. Pure and synchronous; throws only ShellParseError (fail closed).
 */
import { builtinGrammars } from '../grammars/lazy.ts';
import type { Grammars } from '../grammars/types.ts';
import { Analyzer } from './analyze.ts';
import { type AnalyzeOptions, utf8Length } from './context.ts';
import { Vars } from './word-value.ts';
import { type ShellCommand, type ShellLimits, ShellParseError } from './types.ts';
import { DEFAULT_MAX_WORK, type ShellWork } from './work.ts';

export type { ShellCommand, ShellLimits, ShellParseErrorCode } from './types.ts';
export { ShellParseError } from './types.ts';
export { changedDirectories } from './directories.ts';
export { decodeAnsiC } from './ansi-c.ts';
export { DEFAULT_MAX_WORK, type ShellWork } from './work.ts';

export interface ShellAnalyzeOptions extends Partial<ShellLimits> {
  /** Structural nesting (compound commands, `${…}`, arithmetic) accepted; default 64. */
  maxNesting?: number;
  /** Script files read per analysis (`bash ./x.sh`, `source x`, `./x.sh`); default 16. */
  maxScripts?: number;
  /**
   * Reads a local script named on the command line (path as written, relative to the command's
   * working directory). Return null when it is missing, not a regular file, or too large: a
   * script a shell runs is then an opaque command marked `unseen: 'unreadable'`. Without it,
   * script files are not analysed (only one written earlier on the line is marked unseen).
   */
  readScript?: (path: string) => string | null;
  /**
   * Program data (src/grammars): how each program reads its command line and what it runs.
   * Default: the builtin programs; a policy passes its own (builtin plus packs' `programs:`).
   */
  programs?: Grammars;
  /**
   * Units of work one analysis may do (work.ts): characters parsed (nested texts again),
   * characters made by expansion, commands found. Past it: `too_complex`. Default 1 Mi.
   */
  maxWork?: number;
  /**
   * The counter charged; pass the same object to several calls to bound them together (the
   * core does for the git aliases it analyses after the line). Default: a new counter.
   */
  work?: ShellWork;
}

export const DEFAULT_LIMITS: Readonly<ShellLimits> = Object.freeze({ maxBytes: 64 * 1024, maxDepth: 8 });
export const DEFAULT_MAX_NESTING = 64;
export const DEFAULT_MAX_SCRIPTS = 16;

/**
 * Every simple command in `text` that could run. Throws ShellParseError for text bash would
 * reject, text larger than `maxBytes` (`too_large`) or nesting deeper than the limits (`too_deep`).
 */
export function analyzeCommandLine(text: string, options: ShellAnalyzeOptions = {}): ShellCommand[] {
  return analyzeLine(text, options).commands;
}

/** What analyzeLine reports: the commands, and every variable the line may assign. */
export interface LineAnalysis {
  commands: ShellCommand[];
  /**
   * Each variable the line may assign (prefix, plain and `export`/`env`/`sudo` `NAME=VALUE`
   * assignments, nested scripts included), with every value it may get; null for a value
   * known only at run time. A superset in no order; null when the line assigns nothing.
   */
  assignments: ReadonlyMap<string, readonly (string | null)[]> | null;
}

/** analyzeCommandLine, plus the variables the line may assign. */
export function analyzeLine(text: string, options: ShellAnalyzeOptions = {}): LineAnalysis {
  const opts: AnalyzeOptions = {
    maxBytes: options.maxBytes ?? DEFAULT_LIMITS.maxBytes,
    maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth,
    maxNesting: options.maxNesting ?? DEFAULT_MAX_NESTING,
    maxScripts: options.maxScripts ?? DEFAULT_MAX_SCRIPTS,
    readScript: options.readScript,
    programs: options.programs ?? builtinGrammars(),
    maxWork: options.maxWork ?? DEFAULT_MAX_WORK,
    work: options.work ?? { used: 0 },
  };
  // UTF-16 length ≤ UTF-8 length ≤ 3 × UTF-16 length: count bytes only when it matters.
  if (text.length > opts.maxBytes || (text.length * 3 > opts.maxBytes && utf8Length(text) > opts.maxBytes)) {
    throw new ShellParseError('too_large', `command text is larger than ${opts.maxBytes} bytes`, opts.maxBytes);
  }
  const analyzer = new Analyzer(opts);
  try {
    analyzer.analyzeText(text, 0, 0, [], new Vars(), null);
  } catch (e) {
    if (e instanceof ShellParseError) throw e;
    if (e instanceof RangeError) throw new ShellParseError('too_deep', 'command nested too deeply to analyse', 0);
    // A defect here must still fail closed, never crash the hook.
    throw new ShellParseError('syntax', `internal error while analysing the command: ${String(e)}`, 0);
  }
  return { commands: analyzer.out, assignments: analyzer.assignments };
}
