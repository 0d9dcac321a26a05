/**
 * Program grammars as data: what the argv reader needs to know about a program's command line
 * so that rules can speak of subcommands and options however the command is spelled.
 * Plain JSON-serialisable data: builtin grammars live in this folder, packs may add more
 * (`programs:` in a pack file) and a compiled policy carries them all.
 */

export interface CommandGrammar {
  /** Options at this level that take a value (`-C`, `--git-dir`, `-o`): the value is not a flag or a word. */
  value_options?: string[];
  /**
   * Long options known at this level. With `abbreviations` on the program, a unique prefix of one
   * of these (or of a long value option) stands for it, as git's option parser allows (`--forc`).
   */
  long_options?: string[];
  /** Another spelling of the same option (`-f` → `--force`); both spellings are recorded. */
  synonyms?: Record<string, string>;
  /** Subcommands that have their own grammar. */
  subcommands?: Record<string, CommandGrammar>;
  /** Subcommand aliases: alias → canonical name (`rm` → `remove`). */
  aliases?: Record<string, string>;
  /** The first non-option word at this level names a subcommand, even one not listed. */
  nested?: boolean;
}

export interface ProgramGrammar extends CommandGrammar {
  /** Options of outer levels stay valid at inner levels and anywhere after (cobra-style CLIs, `gh`). */
  inherit_options?: boolean;
  /** `-X=value` gives `value` (pflag); without it, `-X=value` gives `=value` (getopt, git). */
  short_equals?: boolean;
  /** Unique prefixes of long options are accepted (git's parse-options). */
  abbreviations?: boolean;
  /**
   * Inline aliases: `git -c alias.NAME=VALUE NAME …`. An alias never shadows one of `commands`
   * (the program's own commands always win, as in git).
   */
  inline_aliases?: InlineAliases;
  /** The program's own top-level commands (used only to decide whether an alias applies). */
  commands?: string[];
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

/** What the argv reader makes of one simple command. */
export interface ReadArgs {
  program: string;
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
  /** Non-option words after the subcommand path. */
  positionals: string[];
  /** Set when the subcommand was an inline shell alias (`git -c 'alias.x=!cmd' x`): the shell text it runs. */
  shell_alias?: string;
}
