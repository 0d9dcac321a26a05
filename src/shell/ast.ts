/**
 * Syntax tree produced by the parser. Only what analysis needs is kept: words as parts
 * (literal text with its quoting, or a run-time expansion with the command bodies nested in it),
 * simple commands, and compound commands reduced to their bodies and expanded words.
 */

/** Literal text. `quoted` = came from quotes or a backslash escape (inert for globs and braces). */
export interface LitPart {
  type: 'lit';
  text: string;
  quoted: boolean;
}

/** A run-time expansion: `$x`, `${…}`, `$(…)`, backticks, `$((…))`, `<(…)`. */
export interface DynPart {
  type: 'dyn';
  kind: 'param' | 'cmdsub' | 'arith' | 'procsub';
  /** Source text as written. */
  src: string;
  /** Inside double quotes or a here-document (no field splitting, no globbing). */
  quoted: boolean;
  /** For a plain `$NAME` / `${NAME}` only. */
  name?: string;
  /** Command lists nested anywhere inside this expansion. */
  subs: Sub[];
}

export type Part = LitPart | DynPart;

export interface Word {
  parts: Part[];
  start: number;
  end: number;
}

/** A command list that runs as part of an expansion, labelled the way `via` shows it. */
export interface Sub {
  label: string;
  body: Script;
}

export interface Assign {
  name: string;
  /** `a[i]=x` → the subscript (it may hold substitutions); null otherwise. */
  index: Word | null;
  /** `a=x` → the value word (empty word for `a=`); null for an array assignment. */
  value: Word | null;
  /** `a=(x y)` → the element words. */
  array: Word[] | null;
  start: number;
}

export interface Heredoc {
  delim: string;
  /** Delimiter was quoted: the body is pure data. */
  quoted: boolean;
  /** `<<-`: leading tabs removed. */
  strip: boolean;
  /** Body text after tab stripping (unexpanded). */
  text: string;
  /** Unquoted delimiter: the body parsed for expansions. */
  body: Word | null;
  /** The body was cut by end of input (bash warns and accepts). */
  unterminated: boolean;
}

export interface Redir {
  /** `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** `2`, `{fd}` or empty. */
  fd: string;
  target: Word | null;
  heredoc: Heredoc | null;
}

export interface SimpleCommand {
  type: 'simple';
  assigns: Assign[];
  words: Word[];
  redirs: Redir[];
  start: number;
  end: number;
}

export type CompoundKind =
  | 'subshell'
  | 'group'
  | 'if'
  | 'while'
  | 'until'
  | 'for'
  | 'select'
  | 'case'
  | 'arith'
  | 'cond'
  | 'coproc';

export interface CompoundCommand {
  type: 'compound';
  kind: CompoundKind;
  /** Command lists inside, in source order. */
  bodies: Script[];
  /** Words expanded by the compound itself (for-lists, case subjects and patterns, `[[ ]]` operands). */
  words: Word[];
  /** The loop variable of `for`/`select` (set by the loop). */
  name?: string;
  redirs: Redir[];
  start: number;
  end: number;
}

export interface FunctionDef {
  type: 'function';
  name: string;
  body: Command;
  start: number;
  end: number;
}

export type Command = SimpleCommand | CompoundCommand | FunctionDef;

export interface Pipeline {
  commands: Command[];
  bang: boolean;
  time: boolean;
}

export interface AndOr {
  pipelines: Pipeline[];
  ops: Array<'&&' | '||'>;
}

export interface ListItem {
  andOr: AndOr;
  async: boolean;
}

export interface Script {
  items: ListItem[];
}
