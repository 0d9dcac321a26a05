/**
 * Program knowledge as data: how a program reads its command line (options, subcommands),
 * what it runs (another command, shell text, interpreter code, a script file) and which files
 * it touches. One reader (reader.ts) reads every program with it. Plain JSON-serialisable data:
 * the builtin programs live in programs/, packs may add or extend programs (`programs:` in a
 * pack file) and a compiled policy carries them all.
 */

/** How a file operand or option value is touched. */
export type Access = 'read' | 'write' | 'delete' | 'metadata';

/** Which words of a command name files, and how each is touched. */
export interface FilesSpec {
  /** Every operand (after `skip` ones) is a file touched so. */
  operands?: Access;
  /** Leading operands that are no files (`chmod MODE`, `grep PATTERN`). */
  skip?: number;
  /** The first file operand is touched so (`zip OUT.zip …`); `none`: it is no file (`bash -c TEXT`). */
  first?: Access | 'none';
  /** The last operand is touched so when there are at least two (`cp A B`, `mv A B`); `none`: no special last. */
  last?: Access | 'none';
  /** Option values that are files (`-o FILE`, `--output=FILE`, `-in FILE`). */
  options?: Record<string, Access>;
  /** Option values that name a file when they start with `@` (`curl -d @body.json`). */
  at_options?: Record<string, Access>;
  /** `NAME=FILE` operands (`dd if=… of=…`). */
  assignments?: Record<string, Access>;
  /** Only operands before the first option are files (`find PATH… EXPRESSION`). */
  leading?: boolean;
  /**
   * The files are touched with everything below them (`rm -r`, `chmod -R`, `find … -delete`,
   * `rsync --delete`); usually given under `when`.
   */
  recursive?: boolean;
  /**
   * The files named are directories whose contents are touched, not the directories themselves
   * (`find DIR -delete`, `rsync --delete SRC DEST`): `DIR` is judged like `DIR/*`.
   */
  contents?: boolean;
  /**
   * The files are taken or replaced as a whole, with everything inside them (`mv`, `cp -r`,
   * `rsync`, `tar -x -C DIR`, `git clone URL DIR`): a write or delete of a directory that holds a
   * named location is a write or delete of that location (docs/packs.md, "Named locations").
   */
  whole?: boolean;
  /**
   * The last operand (or a `-t DIR` value) may be a directory the other operands go into: each
   * operand's name joined to it is written too (`cp hooks.json ~/.cursor/` writes
   * `~/.cursor/hooks.json`).
   */
  into?: boolean;
  /**
   * The command makes links to its operands (`ln`, `ln -s`, `cp -l`, `cp -s`): each operand is
   * also a link target, judged as written through the link (the `link` path condition; a
   * symbolic link's relative target is resolved from the link's directory).
   */
  links?: 'hard' | 'symbolic';
  /** Given this option, these fields replace the ones above (`sed -i`, `find -delete`, `tar -c`). */
  when?: Record<string, Omit<FilesSpec, 'when'>>;
}

/** What a program runs. */
export interface RunsSpec {
  /** The operands after the options (after `skip` of them, and `NAME=value` words with `assignments`) are a command. */
  command?: boolean;
  /** Operands before the command that are no part of it (`timeout DURATION`, `ssh HOST`). */
  skip?: number;
  /** `NAME=value` words before the command are assignments (`env`, `sudo`). */
  assignments?: boolean;
  /** The operands are a command only when one of these options is given (`runuser -u`). */
  command_when?: string[];
  /** Words that end the command (`parallel CMD ::: ARGS`); with no command, the words after them are shell text. */
  until?: string[];
  /** A word holding this string is filled in at run time (`find -exec … {}`, `xargs -I {}`). */
  replace?: string;
  /** Options whose value is the replacement string instead (`xargs -I %`); `replace` is then the default. */
  replace_options?: string[];
  /** Arguments are appended at run time (`xargs CMD`). */
  appends?: boolean;
  /**
   * The arguments come from standard input, split as xargs splits it: when that input is known
   * (`echo a b | xargs CMD`) the commands made from it can be read. Not with one of these
   * options (`-d`, `-a`, `-E` change the splitting or the source).
   */
  stdin_args?: string[];
  /** With one of these options the input items are separated by NUL bytes, taken as they are (`xargs -0`, `--null`). */
  stdin_nul?: string[];
  /** The command does not read the program's standard input (`xargs` reads it itself). */
  no_stdin?: boolean;
  /** The command when none is given (`xargs` → `echo`). */
  default_command?: string;
  /** The operands, joined by blanks, are shell text (`eval`, `watch`, `ssh HOST CMD`). */
  shell_operands?: boolean;
  /** With one of these options the operands are a command instead of shell text (`watch -x`). */
  exec_flags?: string[];
  /** Options whose value is shell text (`su -c`, `flock -c`, `git rebase --exec`). */
  shell_options?: string[];
  /**
   * Options that set a setting, `NAME=VALUE` (or `NAME VALUE`), where some settings are shell
   * text the program runs (`git -c core.pager=…`, `ssh -o ProxyCommand=…`): option → setting
   * names, compared in lower case; a name ending in `.` is a prefix (`pager.`). A leading `!` of
   * the value is dropped (`credential.helper=!cmd`).
   */
  shell_settings?: Record<string, string[]>;
  /** With one of these flags the first operand is shell text and the rest are its $0, $1, … (`bash -c`). */
  shell_flags?: string[];
  /** The first operand is shell text when there are at least this many operands (`trap CMD SIGNAL`). */
  shell_first?: number;
  /**
   * Operands `NAME=VALUE` whose VALUE is shell text the shell runs later, in place of NAME
   * (`alias NAME=VALUE`): read as if it ran where it is defined.
   */
  shell_assignments?: boolean;
  /** Options whose value is code in `language` (`python -c`, `node -e`). */
  code_options?: string[];
  /**
   * The first operand is code in `language` (`awk 'PROGRAM' FILE…`), unless the code comes from
   * an option (`code_options`) or a program file (`code_file_options`: `awk -f PROG FILE…`).
   */
  code_operand?: boolean;
  code_file_options?: string[];
  /** The language of the code (interpreters.ts reads it): python, node, perl, ruby, php, awk. */
  language?: string;
  /** Given no operand, code is read from standard input (`echo … | python`). */
  stdin_code?: boolean;
  /** The first operand is a script file the program runs (`bash FILE`, `source FILE`). */
  script_operand?: boolean;
  /**
   * Script files that are programs of their own: when the first operand's base name is one of
   * these, the operands are a command (`node …/buckler.cjs trust` runs `buckler.cjs trust`).
   */
  script_commands?: string[];
  /** Without operands after the script, it keeps the caller's positional parameters (`source FILE`). */
  keeps_positional?: boolean;
  /** Given no script operand, or one of `stdin_flags`, the script is read from standard input (shells). */
  stdin_script?: boolean;
  stdin_flags?: string[];
  /** Options that start a command ending at one of the words given (`find -exec … ;`; `{} +`: `+` after `{}`). */
  exec_options?: Record<string, string[]>;
  /** Given one of these, nothing runs (`--help`, `sudo -l`); an optional-value option counts only when bare. */
  no_run?: string[];
  /**
   * When the program itself is reported: `always` (default: `find`, `python -c`, `git submodule
   * foreach`), `idle` (only when it runs nothing: `sudo`, `env`, `bash -c`), `never` (`eval`).
   */
  self?: 'always' | 'idle' | 'never';
}

export interface CommandGrammar {
  /** Options at this level that take a value (`-C`, `--git-dir`, `-o`): the value is not a flag or a word. */
  value_options?: string[];
  /**
   * Options whose value is always a following word, even inside a bundle, which goes on
   * (shells: `bash -oe pipefail -c …` sets `-o pipefail` and `-e`).
   */
  next_word_values?: string[];
  /** Options whose value must be attached (`-h[HOST]`, `--preserve-env[=LIST]`, `perl -i[EXT]`). */
  optional_value?: string[];
  /**
   * Long options known at this level (flags). With `abbreviations` on the program, a unique
   * prefix of one of these (or of a long value option) stands for it (`--forc`, `env --uns`).
   */
  long_options?: string[];
  /** Known short flags (`-i`, `-v`), for `strict` levels. */
  flags?: string[];
  /** Another spelling of the same option (`-f` → `--force`); both spellings are recorded. */
  synonyms?: Record<string, string>;
  /** Subcommands that have their own grammar. */
  subcommands?: Record<string, CommandGrammar>;
  /** Subcommand aliases: alias → canonical name (`rm` → `remove`). */
  aliases?: Record<string, string>;
  /** The first non-option word at this level names a subcommand, even one not listed. */
  nested?: boolean;
  /** An option not listed here makes the command not understood (what it runs cannot be known). */
  strict?: boolean;
  /** Options end at the first operand (POSIX; what follows belongs to the command it runs). */
  options_first?: boolean;
  /** With `options_first`: options are still read after this many operands (`flock FILE -c CMD`). */
  options_after?: number;
  /** `-5`, `--10` are numeric options (`nice -5`, `head -20`). */
  numeric?: boolean;
  /** Options are whole words after one dash (`find -name`, `java -jar`, `terraform -auto-approve`); no bundles. */
  single_dash_long?: boolean;
  /** `+o`, `+x` are options too (shells). */
  plus_options?: boolean;
  /** A lone `-` is this option (`env -` is `env -i`); `--`: it ends the options (shells). */
  dash?: string;
  /** Options whose value is split into words that are read in their place (`env -S`). */
  split_options?: string[];
  /** Options after which every word is an operand (`python -m MOD ARGS`). */
  stop_after?: string[];
  /** What this command runs. */
  runs?: RunsSpec;
  /** Files it touches. */
  files?: FilesSpec;
  /**
   * Words given roles that rules can test: `{ operands: refspec }`, `{ --method: http_method }`.
   * What a role's words mean is the program's `role_kinds`.
   */
  roles?: Record<string, string>;
}

export interface ProgramGrammar extends CommandGrammar {
  /** Options of outer levels stay valid at inner levels and anywhere after (cobra-style CLIs, `gh`). */
  inherit_options?: boolean;
  /** `-X=value` gives `value` (pflag); without it, `-X=value` gives `=value` (getopt, git). */
  short_equals?: boolean;
  /** Unique prefixes of long options are accepted (git's parse-options, GNU getopt_long). */
  abbreviations?: boolean;
  /**
   * Inline aliases: `git -c alias.NAME=VALUE NAME …`. An alias never shadows one of `commands`
   * (the program's own commands always win, as in git).
   */
  inline_aliases?: InlineAliases;
  /** The program's own top-level commands (used only to decide whether an alias applies). */
  commands?: string[];
  /** `NAME-CMD` (and `…/NAME-core/NAME-CMD`) is `NAME CMD` (`git-push`). */
  dashed?: boolean;
  /** `NAME3`, `NAME3.12` are this program too (`python3.12`). */
  versioned?: boolean;
  /**
   * Environment variables whose value the program runs, when the line sets them (`NAME=… cmd`,
   * `export NAME=…`, `env NAME=… cmd`): `shell`, as shell text or a program it starts
   * (`GIT_SSH_COMMAND`, `GIT_EDITOR`); `script`, as a script file it reads first (`BASH_ENV`).
   */
  env_runs?: Record<string, 'shell' | 'script'>;
  /**
   * What the words of each role (`roles` at any level) mean, by role name: the marks rules test
   * (`role_marks: [refspec.force]`). The core knows marks, never a program's syntax.
   */
  role_kinds?: Record<string, RoleKind>;
  /**
   * Environment variables that give a role its word when the command has none (`AWS_PROFILE` →
   * `profile`): the hook's environment, or what the line sets (`VAR=… cmd`, `export VAR=…`).
   */
  env_roles?: Record<string, string>;
  /**
   * Roles whose word, when neither the command nor the environment gives one, is read where the
   * command runs (`context` ← `kube_context`: the kubeconfig's `current-context`). The name is
   * what the caller's reader knows (EvaluateOptions.readTarget); the core reads no file.
   */
  ambient_roles?: Record<string, string>;
  /**
   * What the program reads on standard input (`< FILE`, a here-document, a here-string, the
   * previous pipeline stage) is a word of this role (`sql`): shell analysis hands it on.
   */
  stdin_role?: string;
  /** Words of the first role name files whose text is a word of the second (`sql_file: sql`: `psql -f FILE`). */
  role_files?: Record<string, string>;
}

/**
 * One role's meaning. A word of the role carries a mark when the mark's test holds for it; the
 * reading then has the mark `ROLE.MARK` (`refspec.delete`). This is the extension point: a new
 * kind of meaning (a target a command acts on) is a new mark or field here, not code per program.
 */
export interface RoleKind {
  marks: Record<string, MarkTest>;
  /**
   * The role's words name where the command acts (a target: a context, namespace, profile,
   * project, host): `name`, compared whole and by parts with the environments listed in
   * config.toml (`[environments] production`); `url`, a URL (`postgres://u:pw@host/db`) whose
   * host and first path part (the database) are compared, or a plain name when it is no URL.
   */
  target?: 'name' | 'url';
}

/**
 * A test of one word, applied in this order: `trim` white space; remove one leading `strip`;
 * compare ignoring letter case when `ignore_case`; then every given condition must hold.
 */
export interface MarkTest {
  trim?: boolean;
  /** Removed once from the start when present (`+` of a forced refspec). */
  strip?: string;
  ignore_case?: boolean;
  /** The word starts with this. */
  prefix?: string;
  /** The word is one of these. */
  equals?: string[];
  /** The word (after `trim` and `strip`) has at least this many characters. */
  min_length?: number;
}

/**
 * Where a program's aliases come from besides `option` (see src/grammars/aliases.ts). Every
 * field but `option` and `prefix` is optional; git's values are in git.ts.
 */
export interface InlineAliases {
  /** The option that sets one configuration entry, `KEY=VALUE` (`-c`). */
  option: string;
  /** Configuration keys of aliases start with this, compared case-insensitively (`alias.`). */
  prefix: string;
  /** The option `KEY=ENVVAR` that sets an entry from a variable (`--config-env`). */
  env_option?: string;
  /** Variable pairs `KEY_n`/`VALUE_n` that set entries (`GIT_CONFIG_KEY_`, `GIT_CONFIG_VALUE_`). */
  env_key?: string;
  env_value?: string;
  /** A variable holding `'KEY'='VALUE'` entries, shell-quoted (`GIT_CONFIG_PARAMETERS`). */
  env_parameters?: string;
  /** The option that changes directory before the configuration is found (`-C`; repeatable, relative to the previous). */
  dir_option?: string;
  /** Options that act as a variable of `config_vars` (`--git-dir` → `GIT_DIR`). */
  option_vars?: Record<string, string>;
  /**
   * Variables that choose which configuration files are read (`GIT_DIR`, `GIT_CONFIG_GLOBAL`,
   * `HOME`, …): set on the line, the files they name are read too.
   */
  config_vars?: string[];
  /** Keys that include another configuration file (`include.path`, `includeIf.*.path`; `*` is any text). */
  include_keys?: string[];
  /** The subcommand that writes configuration (`config`): writing an alias is judged as running it. */
  config_command?: string;
  /** Options of `config_command` that take a value (the other options are flags). */
  config_value_options?: string[];
  /** Options or subcommands of `config_command` that rename a section (whose entries may become aliases). */
  config_rename?: string[];
  /** Options or subcommands of `config_command` that only read or remove entries (`--get`, `get`). */
  config_read_only?: string[];
}

export type Grammars = Readonly<Record<string, ProgramGrammar>>;

/** A word of a command line as the reader needs it. */
export interface Word {
  readonly value: string;
  /** The word has a run-time part (`$x`, `$(…)`). */
  readonly dynamic: boolean;
}

/** One thing a command runs, as the reader found it. Words are the command's own (or made from them). */
export type Run<W extends Word> =
  /**
   * Another command, as argv words (`sudo CMD`, `find -exec CMD ;`). `input`: its arguments come
   * from standard input (xargs): the command as written and the replacement string (null: appended).
   */
  | { kind: 'command'; argv: W[]; label: string; stdin: boolean; input?: { argv: W[]; replace: string | null; nul?: boolean } }
  /**
   * Shell text (`bash -c TEXT ARG0 ARG1`): `args` are what follows it ($0, $1, …), when known;
   * `defines`: the text is what this name stands for from now on (`alias NAME=TEXT`).
   */
  | { kind: 'shell'; text: W; label: string; args?: W[]; defines?: string }
  /** Code in an interpreter's language. */
  | { kind: 'code'; code: W; language: string; label: string }
  /** Code read from standard input. */
  | { kind: 'stdin_code'; language: string }
  /** A script file the program runs; `args`: its $1, … when known. */
  | { kind: 'script'; path: W; label: string; args?: W[] }
  /** A shell script read from standard input; `args`: the operands (`bash -s a b`). */
  | { kind: 'stdin_script'; args: W[] };

/** A file a command touches. */
export interface FileUse<W extends Word> {
  word: W;
  access: Access;
  /** With everything below it (FilesSpec.recursive). */
  recursive?: boolean;
  /** What is inside the directory is touched, not the directory (FilesSpec.contents). */
  contents?: boolean;
  /** Taken or replaced with everything inside it (FilesSpec.whole). */
  whole?: boolean;
  /** The target of a link the command makes (FilesSpec.links), and the link's name when given. */
  link?: { kind: 'hard' | 'symbolic'; at: W | null };
}

/** What the reader makes of one command. */
export interface Reading<W extends Word> {
  program: string;
  /** The words read (after `env -S` splitting), argv[0] included. */
  words: W[];
  /** Canonical subcommand path (`['remote', 'remove']` for `git remote rm`). */
  subcommand: string[];
  /** A word where a subcommand was expected has a run-time part (`git $SUB`). */
  subcommand_dynamic: boolean;
  /**
   * Every option present, normalised: `--force-with-lease=x` → `--force-with-lease`, the bundle
   * `-uf` → `-u` and `-f`, abbreviations expanded, synonyms recorded under both spellings.
   */
  flags: Set<string>;
  /** Values given to options (`-X DELETE`, `--method=delete`), by every spelling of the option. */
  values: Map<string, string[]>;
  /** Indices into `words` of the operands (non-option words after the subcommand path). */
  operands: number[];
  /** Set when the subcommand was an inline shell alias (`git -c 'alias.x=!cmd' x`): the shell text it runs. */
  shell_alias?: string;
  /** Options not understood: what runs cannot be known. */
  unknown: string | null;
  /** What the command runs, in order. */
  runs: Run<W>[];
  /** Whether the program itself is reported as a command (see RunsSpec.self). */
  self: boolean;
  /** Files the command touches, from the program's `files` data. */
  files: FileUse<W>[];
  /** Words with a role (`refspec`, `http_method`), by role. */
  roles: Map<string, string[]>;
  /** The marks those words carry (`refspec.force`), from the program's `role_kinds`. */
  marks: ReadonlySet<string>;
}

/** The string-only reading rules use (argv from the shell analysis). */
export interface ReadArgs {
  program: string;
  subcommand: string[];
  subcommand_dynamic: boolean;
  flags: Set<string>;
  values: Map<string, string[]>;
  /** Non-option words after the subcommand path. */
  positionals: string[];
  shell_alias?: string;
  roles: Map<string, string[]>;
  /** `ROLE.MARK` for each mark a role word carries (Reading.marks). */
  marks: ReadonlySet<string>;
}
