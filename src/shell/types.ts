/**
 * What shell analysis hands to the rest of Buckler: every simple command that could run,
 * as a clean argv, with wrappers (`sudo`, `env`, `bash -c`, `eval`, `xargs`, …) unwrapped.
 */

export interface ShellCommand {
  /**
   * Words with quotes removed and escapes decoded. argv[0] is the program's basename after
   * unwrapping (`/usr/bin/git` → `git`). A word with a run-time part keeps that part's source
   * text (`$x`, `$(echo git)`) and is flagged in `dynamic`.
   */
  argv: string[];
  /** Indices into argv of words that contain a run-time expansion. */
  dynamic: number[];
  /** True when the program itself cannot be known statically (`$CMD commit`, `eval "$x"`). */
  opaque: boolean;
  /** Wrappers this command was found through, outermost first: `sudo`, `bash -c`, `eval`, `$(…)`. */
  via: string[];
  /**
   * Set on the opaque command that stands for a script a shell (or `eval`, `source`) runs but
   * analysis cannot see: `runtime` = its text is known only at run time (`bash -c "$x"`,
   * `eval "$(cmd)"`, `curl … | sh`); `unreadable` = a script file that could not be read (missing,
   * too large, not a regular file, or written earlier on the same line). Absent otherwise.
   */
  unseen?: 'runtime' | 'unreadable';
  /**
   * Files the command's redirections name: `> f`, `>> f`, `>| f`, `&> f`, `>& f` write, `< f`
   * reads, `<> f` both. A redirection with no command (`> f`, `{ …; } > f`) is reported as a
   * command with an empty argv. Absent when there are none.
   */
  redirs?: RedirFile[];
  /**
   * The directory the command runs in when a `cd`/`pushd` earlier on the line changed it: the
   * path as the `cd`s give it (absolute, `~`-prefixed, `$HOME`-prefixed, or relative to the
   * event's directory); null when it is known only at run time (`cd "$X"`, `cd -`, a `cd` that
   * may not have run). Absent: the event's directory.
   */
  cwd?: PathWord | null;
  /** Indices of argv words whose leading `~` was quoted (bash does not expand it). */
  quoted_tilde?: number[];
  /**
   * A command run for each path a walk finds (`find DIR -exec CMD {} ;`): the argv words the
   * walker fills in (`indices`) name what is found under its starting points (`under`).
   */
  walk?: { indices: number[]; under: PathWord[] };
  /**
   * Set on a command that stands for text a shell, `eval`, `source` or an interpreter runs as
   * its script or program when that text is not (all) seen: the commands that produced it.
   * `pipe`: earlier stages of the pipeline into its standard input (`curl … | sh`); `substitution`:
   * commands substituted into it (`bash -c "$(curl …)"`, `source <(wget -O- …)`, `sh < <(…)`);
   * `file`: earlier commands on the line that named or wrote the script file
   * (`curl -o x.sh … && bash x.sh`, `wget URL/x.sh; sh x.sh`). Absent when none is known.
   */
  script_from?: ScriptSource[];
  /**
   * The text of the here-document or here-string the command reads on standard input
   * (`cat >> f <<EOF … EOF`, `tee f <<< TEXT`), its literal parts; absent when it reads none.
   */
  stdin_text?: string;
  /**
   * Text the command reads that is a word of one of its roles (program data `stdin_role`,
   * `role_files`): what it reads on standard input, or from a file an option names (`psql -f
   * FILE`). `text` null: it cannot be read (known only at run time, unreadable, written earlier
   * on the line). Absent when there is none.
   */
  texts?: RoleText[];
}

export interface RoleText {
  role: string;
  text: string | null;
}

/** A word that names a path: its value, and whether it holds a run-time expansion. */
export interface PathWord {
  value: string;
  dynamic: boolean;
}

export interface RedirFile extends PathWord {
  access: 'read' | 'write';
  /** The word starts with a quoted `~` (not expanded). */
  quoted_tilde?: true;
}

/** One command whose output became (part of) a script that runs: ShellCommand.script_from. */
export interface ScriptSource {
  /** argv as in ShellCommand (argv[0]: the program's basename, wrappers unwrapped). */
  argv: string[];
  /** Indices into argv of run-time words. */
  dynamic: number[];
  how: 'pipe' | 'substitution' | 'file';
}

/**
 * What a reader returns for a file a command runs: its text; null when something is there that
 * cannot be read; undefined when nothing is there; or its text (or null) with the commands that
 * produced it in an earlier call (a file downloaded or decoded then, recorded by the caller).
 */
export type ScriptRead = string | null | undefined | { text: string | null; from: ScriptSource[] };

export interface ShellLimits {
  /** Bytes of command text accepted; more is a parse error (fail closed). */
  maxBytes: number;
  /**
   * Nesting of `bash -c` / substitutions / `eval` / stdin scripts / script files accepted
   * (compound commands have their own, larger bound: `maxNesting` in ShellAnalyzeOptions).
   */
  maxDepth: number;
}

/**
 * `too_large`: the text is over `maxBytes`, or one brace expansion over its own cap;
 * `too_complex`: the whole analysis would go past its work budget (see work.ts).
 */
export type ShellParseErrorCode = 'syntax' | 'unterminated' | 'too_deep' | 'too_large' | 'too_complex';

/** The only error shell analysis throws. `offset` is a UTF-16 index into the analysed text. */
export class ShellParseError extends Error {
  override readonly name = 'ShellParseError';
  constructor(
    readonly code: ShellParseErrorCode,
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}
