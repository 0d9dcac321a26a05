/**
 * `CompiledPolicy`: packs and config compiled once into plain JSON-serialisable data that
 * `evaluate` reads on every call. Produced by src/packs (which validates it); the core trusts it.
 */
import type { SqlKind } from '../grammars/sql.ts';
import type { ProgramGrammar } from '../grammars/types.ts';
import type { Access, Decision } from './contract.ts';
import type { PathScope } from './path-scope.ts';

export type Tier = 'baseline' | 'strict';
export const TIERS: readonly Tier[] = ['baseline', 'strict'];

/** Operator bypass: exactly "1" in PolicyInput.env allows every `pre_*` decision. */
export const BYPASS_VARS = ['BUCKLER_BYPASS', 'RETHUNK_ALLOW_SHELL'] as const;

/** Bumped when the compiled shape changes, so caches of an older shape are rebuilt. */
export const POLICY_FORMAT = 6;

/** One mark a `shell_segments` entry requires, with the pack key that asked for it (explain shows it). */
export interface RoleMarkCondition {
  /** `ROLE.MARK`. */
  mark: string;
  /** The pack key: `role_marks`, or a shorthand (`refspec_force`, `refspec_delete`, `method_delete`). */
  condition: string;
}

/**
 * One `shell_segments` entry. Every given condition must hold for one simple command. Boolean
 * conditions count only when true (`false` is the same as absent), as in pack format "1".
 */
export interface SegmentMatcher {
  /** Basenames of the program (any of them). */
  program?: string[];
  /** Canonical subcommand words; they must begin the command's subcommand path (then its positionals). */
  subcommand?: string[];
  flags_any?: string[];
  flags_all?: string[];
  /**
   * Marks the command's role words must carry, every one (`refspec.force`): the program data's
   * `role_kinds` say which word carries which mark (src/grammars/types.ts, RoleKind).
   */
  role_marks?: RoleMarkCondition[];
  /** The program is not statically known (`$CMD commit`, `eval "$x"`). */
  opaque?: boolean;
  /** A word where the subcommand should be has a run-time part (`prog $SUB`). */
  subcommand_dynamic?: boolean;
  /** At least one literal argument word (not argv[0], not a run-time word) is one of these. */
  words_any?: string[];
  /** A path the command (or file-tool call) touches meets every condition given here. */
  paths?: PathMatcher;
  /** At least one literal argument word contains one of these strings, any letter case (stored in lower case). */
  words_contain?: string[];
  /**
   * The command line gives some command's environment one of these variables (`*` any
   * characters): a prefix assignment, `export`, `env NAME=…`, anywhere on the line.
   */
  line_sets?: string[];
  /**
   * The text the command writes contains one of these strings, any letter case (stored in lower
   * case): a literal argument word, the here-document or here-string it reads
   * (ShellCommand.stdin_text), or for a file-tool call the text it writes (`Write` content, `Edit`
   * new text; not the text it replaces).
   */
  text_contains?: string[];
  /** Some argument word has a part known only at run time (`echo "$X"`). */
  dynamic_words?: boolean;
  /**
   * The SQL the command carries (its `sql` role words, read by grammars/sql.ts) has a statement
   * of one of these kinds (`drop_table`, `delete_all`, …).
   */
  sql?: SqlKind[];
  /** Some SQL the command carries could not be read: run-time text, too long, a string never closed. */
  sql_unread?: boolean;
  /**
   * Where the command acts (its target roles, core/targets.ts): `production`, some target is a
   * production environment (config.toml `[environments]`); `unchecked`, none is and some target
   * could not be checked (known only at run time, or not determinable).
   */
  target?: TargetState[];
  /** None of these entries matches the command (`program: buckler` except `check`). */
  not?: SegmentMatcher[];
  /** Every one of these is a literal argument word. */
  words_all?: string[];
  /**
   * The command's words exactly: as many, in this order, none known only at run time; the
   * first compared as the program name (`programName`), the others literally.
   */
  argv?: string[];
  /** One of the event's project roots is one of these directories (absolute, normalised). */
  project?: string[];
  /** At least one literal argument word is one of these, ignoring letter case (stored in lower case). */
  words_any_ignore_case?: string[];
  /** None of these options is present (normalised like flags_any). */
  flags_none?: string[];
  /** At least this many positionals after the subcommand path (ReadArgs.positionals, less those the rule's subcommand words take). */
  positionals_min?: number;
  /** At least one of those positionals matches one of these patterns (`*` any characters, `\` escapes the next). */
  positionals_any?: string[];
  /**
   * The command stands for script text that a shell, `eval`, `source` or an interpreter runs
   * and that was produced by one of these programs (ShellCommand.script_from): basenames in
   * `programs`; with `flags_any`, the producer has one of these options; with `how`, it produced
   * the text that way (`pipe`, `substitution`, `file`).
   */
  script_from?: ScriptFromMatcher;
  /**
   * The command stands for text that runs but that analysis could not see, for one of these
   * reasons (ShellCommand.unseen): `unreadable` (a script file that could not be read or
   * analysed, or one the line produced), `runtime` (text known only at run time).
   */
  unseen?: Array<'runtime' | 'unreadable'>;
  /** The unseen script's file, as written, matches one of these patterns (`*` any characters). */
  unseen_file?: string[];
}

/**
 * Conditions on one path a command touches (docs/packs.md, "Paths"). Every given condition
 * must hold for the same path. Unlike the segment's booleans, a path boolean given as `false`
 * requires the opposite (`project_root: false`: not a project root).
 */
export interface PathMatcher {
  access?: Access[];
  scope?: PathScope[];
  /** The path matches one of these globs (`~/.ssh/**`, `/dev/**`, `.env`). */
  glob?: string[];
  /** The path matches none of these globs. */
  not_glob?: string[];
  /** The path is a project root or an ancestor of one. */
  holds_project?: boolean;
  /** The path is a project root. */
  project_root?: boolean;
  /** Touched with everything below it (`rm -r`, `chmod -R`, `find -delete`, `rsync --delete`). */
  recursive?: boolean;
  /** The path lies in (or, touched recursively, holds) one of these named locations (`context.locations`). */
  location?: string[];
  /** The path is what a link the command makes points to (`ln -s TARGET NAME`, `cp -s`, `ln`). */
  link?: boolean;
}

export interface ScriptFromMatcher {
  programs: string[];
  flags_any?: string[];
  how?: Array<'pipe' | 'substitution' | 'file'>;
}

export interface CompiledRule {
  /** `pack/rule`. */
  id: string;
  pack: string;
  triggers: string[];
  action: Decision;
  priority: number;
  tier: Tier;
  /** null: the rule does not look at the command. */
  shell_segments: SegmentMatcher[] | null;
  tool_name: string | null;
  env: Record<string, string> | null;
  user_message: string | null;
  agent_message: string | null;
  additional_context: string | null;
  /**
   * Can only make a decision more severe (untrusted project rules, docs/project-rules.md): such
   * a rule competes only with other tighten-only rules, and the command takes its decision only
   * when that is more severe than what the other rules decided. Absent: an ordinary rule.
   */
  tighten?: true;
  /** A signed bundle's rule: it never wins over a `guard` rule's deny, whatever its priority. */
  bundle?: true;
  /** A deny of a guard pack (agent-tamper, agent-secrets) that no bundle rule outranks. */
  guard?: true;
}

export interface PackInfo {
  id: string;
  /** File it came from (for messages). */
  source: string;
  builtin: boolean;
  /** Rules loaded from it (after tier filtering). */
  rules: number;
}

/**
 * One pack's guarded words (its `guarded_words:`): each entry is a set of words that must all
 * appear somewhere in a command line (`*` in a word matches any characters). When a shell runs
 * a script analysis cannot see (ShellCommand.unseen) and an entry matches, the line is at least
 * `ask` (evaluate.ts).
 */
export interface GuardedWords {
  pack: string;
  words: string[][];
}

/** The states a `target` condition tests. */
export const TARGET_STATES = ['production', 'unchecked'] as const;
export type TargetState = (typeof TARGET_STATES)[number];

export interface CompiledPolicy {
  policy_format: typeof POLICY_FORMAT;
  tier: Tier;
  packs: PackInfo[];
  /** In load order: builtin packs by file name, then user packs by file name. */
  rules: CompiledRule[];
  /** Builtin program data, extended by packs' `programs:`; the shell analysis and the reader use it. */
  grammars: Record<string, ProgramGrammar>;
  /** Names of env variables the rules refer to, plus the bypass variables. */
  env_keys: string[];
  /** Enabled packs' guarded words for the active tier, in load order (absent: none). */
  guarded_words?: GuardedWords[];
  /** config.toml's `[environments] production` (absent: targets.ts DEFAULT_PRODUCTION). */
  production?: string[];
  /**
   * The same rules, found by program and read on first use (the compiled-pack cache sets it, not
   * enumerable: it is never serialised). When present, matching reads `rule_buckets` and never
   * `rules`, so a hook pays only for the programs on its line (docs/performance.md).
   */
  rule_buckets?: RuleBuckets;
}

/** A rule with its load order (the earlier rule wins a full tie). */
export interface OrderedRule {
  rule: CompiledRule;
  order: number;
}

/** A policy's rules split by program: what a command of one program can meet. */
export interface RuleBuckets {
  /** Every rule some `shell_segments` entry of which names no program (or that has none), in load order. */
  readonly common: readonly OrderedRule[];
  /** The other rules with an entry naming `program`, in load order. */
  forProgram(program: string): readonly OrderedRule[];
}
