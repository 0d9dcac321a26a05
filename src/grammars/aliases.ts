/**
 * Program aliases (git's `alias.*`), expanded on the argv before the grammar reads it.
 *
 * A word where a subcommand is expected that is not one of the program's own `commands` may
 * be an alias. Its definitions come, most binding first, from the command's own options
 * (`-c alias.x=…`, `--config-env=alias.x=VAR`), then from anywhere the line may have put one
 * (`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`, a `git config alias.x …`
 * earlier or later on the line) and from the configuration files the caller read (the
 * repository's and the user's). The option definitions decide alone, as in git (the command
 * line wins over every file); every other definition is a candidate, because which of them is
 * in force when the command runs depends on run-time order, loops and directories: each
 * candidate's expansion is judged and the most severe wins.
 *
 * Which options, variables and subcommand carry aliases is data (`inline_aliases` in the
 * program's grammar); this module names no program. Everything here is bounded: alias chains
 * stop after MAX_STEPS (git stops at a loop), a word has at most MAX_CANDIDATES expansions.
 */
import { splitAliasWords } from './split.ts';
import type { InlineAliases, ProgramGrammar } from './types.ts';

/** Definitions of one alias name: its values; null when a value is only known at run time. */
export type AliasValues = readonly (string | null)[];

/**
 * Definitions found around a command: by lower-cased name, plus those whose name is only
 * known at run time (`git config "alias.$n" …`), which may define any name.
 */
export interface AliasTable {
  byName: ReadonlyMap<string, AliasValues>;
  anyName: AliasValues;
}

/** One way an alias use may run. */
export type AliasExpansion =
  | { kind: 'argv'; argv: string[]; dynamic: number[]; label: string }
  | { kind: 'shell'; text: string; label: string };

/** One alias definition written by the config command (`git config alias.p 'push --force'`). */
export interface AliasWrite {
  /** Lower-cased alias name; null when the key is only known at run time. */
  name: string | null;
  /** The value; null when only known at run time. */
  value: string | null;
}

const MAX_STEPS = 8;
const MAX_CANDIDATES = 16;
/** The run-time word standing for an alias whose value is not known (`${alias.x}`). */
export function unknownAliasWord(prefix: string, name: string | null): string {
  return `\${${prefix}${name ?? '*'}}`;
}

const commandSets = new WeakMap<ProgramGrammar, ReadonlySet<string>>();

/** The program's own commands as a set, made once per grammar (most git commands are one of them). */
function commandSet(g: ProgramGrammar): ReadonlySet<string> {
  let set = commandSets.get(g);
  if (set === undefined) {
    set = new Set(g.commands ?? []);
    commandSets.set(g, set);
  }
  return set;
}

/** Where a command looks for its configuration, from its own options. */
export interface AliasSite {
  /** `dir_option` values in order (`-C a -C b`); null for a run-time one. */
  dirs: readonly (string | null)[];
  /** `option_vars` given as options (`--git-dir=x` → `['GIT_DIR', 'x']`); null value for a run-time one. */
  vars: readonly (readonly [string, string | null])[];
  /** Files included by the command's own options (`-c include.path=F`); null for a run-time one. */
  includes: readonly (string | null)[];
}

interface Scan extends AliasSite {
  /** argv index of the first word that is not a (global) option, or -1. */
  at: number;
  /** Entries of the `option` (`-c k=v`) and `env_option` (`--config-env=k=VAR`: the value is VAR) before it. */
  inline: ConfigWrite[];
  envInline: ConfigWrite[];
  dirs: (string | null)[];
  vars: [string, string | null][];
  includes: (string | null)[];
}

/**
 * The argv index of the subcommand word past the program's global options (the root level's
 * `value_options`, in every spelling the reader accepts: `-C dir`, `-Cdir`, `--git-dir=x`), or
 * -1; `onValue` sees each option value on the way.
 */
function rootWord(argv: readonly string[], g: ProgramGrammar, onValue?: (opt: string, v: string, index: number) => void): number {
  const values = g.value_options ?? [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === '--') continue;
    if (w.length < 2 || w[0] !== '-') return i;
    if (w[1] === '-') {
      const eq = w.indexOf('=');
      if (eq >= 0) onValue?.(w.slice(0, eq), w.slice(eq + 1), i);
      else if (values.includes(w) && i + 1 < argv.length) {
        i++;
        onValue?.(w, argv[i]!, i);
      }
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const opt = `-${w[j]}`;
      if (!values.includes(opt)) continue;
      const rest = w.slice(j + 1);
      if (rest !== '') onValue?.(opt, rest, i);
      else if (i + 1 < argv.length) {
        i++;
        onValue?.(opt, argv[i]!, i);
      }
      break;
    }
  }
  return -1;
}

/** rootWord, collecting what the global options say about aliases and configuration. */
function scanRoot(argv: readonly string[], dyn: readonly number[], g: ProgramGrammar, ia: InlineAliases): Scan {
  const out: Scan = { at: -1, inline: [], envInline: [], dirs: [], vars: [], includes: [] };
  out.at = rootWord(argv, g, (opt, v, index) => {
    const known = dyn.includes(index) ? null : v;
    if (opt === ia.option || opt === ia.env_option) {
      // `-c k=v`: a run-time part is in the key when the key shows it, else in the value.
      const eq = v.indexOf('=');
      if (eq < 0 && known !== null) return;
      const key = eq < 0 ? v : v.slice(0, eq);
      const keyDynamic = known === null && /[$`]/.test(key);
      const entry: ConfigWrite = { key, keyDynamic, value: known === null ? null : v.slice(eq + 1) };
      (opt === ia.option ? out.inline : out.envInline).push(entry);
    } else if (opt === ia.dir_option) out.dirs.push(known);
    else if (ia.option_vars !== undefined && Object.hasOwn(ia.option_vars, opt)) out.vars.push([ia.option_vars[opt]!, known]);
  });
  return out;
}

/**
 * Whether `argv` may use an alias (its subcommand word is not one of the program's commands)
 * or write configuration (it is the config command): the cheap test before anything else, so
 * that `git status` or `git push` costs one scan of the global options.
 */
export function mayTouchAliases(argv: readonly string[], dynamic: readonly number[], g: ProgramGrammar): boolean {
  const ia = g.inline_aliases;
  if (ia === undefined) return false;
  const at = rootWord(argv, g);
  if (at < 0 || dynamic.includes(at)) return false;
  const word = argv[at]!;
  return word === ia.config_command || !commandSet(g).has(word);
}

/**
 * What the command's own entries (`-c`, `--config-env`) say about alias `name`: the value of
 * the last one that names it (null when run-time), and whether an entry with a run-time key
 * may name it too.
 */
function ownEntries(ia: InlineAliases, entries: readonly ConfigWrite[], name: string): { last?: string | null; maybe: boolean } {
  const out: { last?: string | null; maybe: boolean } = { maybe: false };
  for (const e of entries) {
    for (const m of meaningsOf(ia, e)) {
      if (m.kind !== 'alias') continue;
      if (m.write.name === name) out.last = m.write.value;
      else if (m.write.name === null) out.maybe = true;
    }
  }
  return out;
}

/** The alias name a configuration key names (`alias.x`, or `alias.x.command` of newer git), or null. */
export function aliasNameOfKey(key: string, prefix: string): string | null {
  if (key.length <= prefix.length || key.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return null;
  const rest = key.slice(prefix.length);
  // `[alias "name"] command = …` (a subsection; newer git) is the key alias.name.command.
  const sub = /^(.+)\.command$/i.exec(rest);
  return (sub?.[1] ?? rest).toLowerCase();
}

function shellQuote(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * The ways `argv` may run when its subcommand word is an alias; null when it is not an alias
 * use (no subcommand, a run-time word, one of the program's commands, or no definition).
 * `table` is called only when a word may be an alias (so a typical command reads no
 * configuration). `variables` gives the values a variable may have on this line (for
 * `--config-env`); a variable never assigned on the line comes from the environment: unknown.
 */
export function expandAliases(
  argv: readonly string[],
  dynamic: readonly number[],
  g: ProgramGrammar,
  table: (site: AliasSite) => AliasTable,
  variables: (name: string) => AliasValues | undefined,
): AliasExpansion[] | null {
  const ia = g.inline_aliases;
  if (ia === undefined) return null;
  const commands = commandSet(g);
  const out: AliasExpansion[] = [];
  const walk = (args: readonly string[], dyn: readonly number[], seen: readonly string[], label: string): boolean => {
    const scan = scanRoot(args, dyn, g, ia);
    if (scan.at < 0 || dyn.includes(scan.at)) return false;
    const word = args[scan.at]!;
    if (commands.has(word)) return false;
    const name = word.toLowerCase();
    // The command's own options decide alone (git's command line beats every file).
    const own = ownEntries(ia, scan.inline, name);
    const viaEnv = ownEntries(ia, scan.envInline, name);
    let values: (string | null)[];
    if (own.last !== undefined) values = [own.last];
    else if (viaEnv.last !== undefined) values = viaEnv.last === null ? [null] : [...(variables(viaEnv.last) ?? [null])];
    else {
      for (const e of scan.inline) for (const m of meaningsOf(ia, e)) if (m.kind === 'include') scan.includes.push(m.path);
      for (const e of scan.envInline) {
        for (const m of meaningsOf(ia, e)) if (m.kind === 'include') scan.includes.push(...(m.path === null ? [null] : (variables(m.path) ?? [null])));
      }
      const t = table(scan);
      values = [...(t.byName.get(name) ?? []), ...t.anyName];
    }
    if (own.maybe || viaEnv.maybe) values.push(null);
    if (values.length === 0) return false;
    const at = label === '' ? `${args[0]} alias ${word}` : label;
    // A loop stops git ("alias loop detected"): nothing runs. A longer chain than we follow
    // may still end in something: unknown.
    if (seen.includes(name)) return false;
    if (seen.length >= MAX_STEPS) {
      out.push(unknown(args, dyn, scan.at, at, unknownAliasWord(ia.prefix, name)));
      return true;
    }
    for (const v of new Set(values)) {
      if (out.length >= MAX_CANDIDATES) {
        // Too many ways to run: what runs is not known.
        out.push(unknown(args, dyn, scan.at, at, unknownAliasWord(ia.prefix, name)));
        return true;
      }
      if (v === null) {
        out.push(unknown(args, dyn, scan.at, at, unknownAliasWord(ia.prefix, name)));
        continue;
      }
      const rest = args.slice(scan.at + 1);
      if (v.startsWith('!')) {
        out.push({ kind: 'shell', text: [v.slice(1), ...rest.map(shellQuote)].join(' '), label: at });
        continue;
      }
      const words = splitAliasWords(v);
      const next = [...args.slice(0, scan.at), ...words, ...rest];
      const shift = words.length - 1;
      const nextDyn = dyn.filter((i) => i < scan.at).concat(dyn.filter((i) => i > scan.at).map((i) => i + shift));
      if (!walk(next, nextDyn, [...seen, name], at)) out.push({ kind: 'argv', argv: next, dynamic: nextDyn, label: at });
    }
    return true;
  };
  return walk(argv, dynamic, [], '') ? out : null;
}

function unknown(args: readonly string[], dyn: readonly number[], at: number, label: string, word: string): AliasExpansion {
  const argv = [...args.slice(0, at), word, ...args.slice(at + 1)];
  return { kind: 'argv', argv, dynamic: [...dyn.filter((i) => i !== at), at].sort((a, b) => a - b), label };
}

/** A configuration entry a command may set; `key` is the source text when only known at run time. */
export interface ConfigWrite {
  key: string;
  keyDynamic: boolean;
  /** null when only known at run time. */
  value: string | null;
}

/** What a configuration entry means here: an alias definition, an include of another file, or nothing. */
export type ConfigMeaning = { kind: 'alias'; write: AliasWrite } | { kind: 'include'; path: string | null };

/** Matches a key against `include_keys` (`*` stands for any text), case-insensitively. */
function isIncludeKey(ia: InlineAliases, key: string): boolean {
  return (ia.include_keys ?? []).some((k) => new RegExp(`^${k.split('*').map(escapeRegExp).join('.*')}$`, 'is').test(key));
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The meanings of one entry; a run-time key may be any key its literal start allows. */
export function meaningsOf(ia: InlineAliases, e: ConfigWrite): ConfigMeaning[] {
  if (!e.keyDynamic) {
    const name = aliasNameOfKey(e.key, ia.prefix);
    if (name !== null) return [{ kind: 'alias', write: { name, value: e.value } }];
    return isIncludeKey(ia, e.key) ? [{ kind: 'include', path: e.value }] : [];
  }
  const head = e.key.split('$', 1)[0]!.toLowerCase();
  const compatible = (k: string): boolean => k.startsWith(head) || head.startsWith(k);
  const out: ConfigMeaning[] = [];
  if (compatible(ia.prefix.toLowerCase())) out.push({ kind: 'alias', write: { name: null, value: e.value } });
  if ((ia.include_keys ?? []).some((k) => compatible(k.split('*', 1)[0]!.toLowerCase()))) out.push({ kind: 'include', path: e.value });
  return out;
}

/**
 * The entries a command writes with the program's config command (`git config k v`, `git
 * config --global --add k v`, `git config set k v`); empty for reads, removals and every
 * other command.
 */
export function configWrites(argv: readonly string[], dynamic: readonly number[], g: ProgramGrammar): ConfigWrite[] {
  const ia = g.inline_aliases;
  if (ia?.config_command === undefined) return [];
  const scan = scanRoot(argv, dynamic, g, ia);
  if (scan.at < 0 || argv[scan.at] !== ia.config_command) return [];
  const valueOptions = ia.config_value_options ?? [];
  const readOnly = ia.config_read_only ?? [];
  const rename = ia.config_rename ?? [];
  const positionals: number[] = [];
  let renaming = false;
  let endOfOptions = false;
  for (let i = scan.at + 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (!endOfOptions && w === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && w.length > 1 && w[0] === '-') {
      const name = w.startsWith('--') ? w.split('=', 1)[0]! : w.slice(0, 2);
      if (rename.includes(name)) renaming = true;
      else if (readOnly.includes(name)) return [];
      if (valueOptions.includes(name) && (w.startsWith('--') ? !w.includes('=') : w.length === 2)) i++;
      continue;
    }
    positionals.push(i);
    // Options stop at the first operand (parse-options' STOP_AT_NON_OPTION), except after a
    // subcommand (`git config set --global k v`): a value may start with `-` (`-c x=y push`).
    if (positionals.length > 1 || (argv[i] !== 'set' && !rename.includes(argv[i]!))) endOfOptions = true;
  }
  // `git config set k v` (newer git): the first positional is the subcommand.
  const first = positionals.length > 0 && !dynamic.includes(positionals[0]!) ? argv[positionals[0]!]! : '';
  if (first === 'set') positionals.shift();
  else if (rename.includes(first)) {
    positionals.shift();
    renaming = true;
  } else if (readOnly.includes(first)) return [];
  if (positionals.length < 2) return [];
  if (renaming) {
    // `--rename-section old alias`: every entry of `old` becomes an alias of unknown name and value.
    const to = positionals[1]!;
    return [{ key: dynamic.includes(to) ? '$' : `${argv[to]!}.$`, keyDynamic: true, value: null }];
  }
  const [k, v] = positionals as [number, number];
  return [{ key: argv[k]!, keyDynamic: dynamic.includes(k), value: dynamic.includes(v) ? null : argv[v]! }];
}

/** The alias definitions a command writes (`git config alias.x v`, …): see configWrites. */
export function aliasWrites(argv: readonly string[], dynamic: readonly number[], g: ProgramGrammar): AliasWrite[] {
  const ia = g.inline_aliases;
  if (ia === undefined) return [];
  const out: AliasWrite[] = [];
  for (const e of configWrites(argv, dynamic, g)) for (const m of meaningsOf(ia, e)) if (m.kind === 'alias') out.push(m.write);
  return out;
}

/**
 * Configuration entries set through variables: `KEY_n`/`VALUE_n` pairs and the parameters
 * variable. `variables` lists every variable assigned on the line with its possible values.
 */
export function configFromVariables(ia: InlineAliases, variables: ReadonlyMap<string, AliasValues>): ConfigWrite[] {
  const out: ConfigWrite[] = [];
  const { env_key: keyVar, env_value: valueVar, env_parameters: paramsVar } = ia;
  for (const [name, values] of variables) {
    if (keyVar !== undefined && valueVar !== undefined && name.startsWith(keyVar)) {
      const n = name.slice(keyVar.length);
      const vals = variables.get(`${valueVar}${n}`) ?? [null];
      for (const key of values) for (const value of vals) out.push({ key: key ?? '$', keyDynamic: key === null, value });
    } else if (name === paramsVar) {
      for (const text of values) {
        if (text === null) out.push({ key: '$', keyDynamic: true, value: null });
        else for (const [key, value] of parseConfigParameters(text)) out.push({ key: key ?? '$', keyDynamic: key === null, value });
      }
    }
  }
  return out;
}

/** Alias definitions made through variables (see configFromVariables). */
export function aliasesFromVariables(ia: InlineAliases, variables: ReadonlyMap<string, AliasValues>): AliasWrite[] {
  const out: AliasWrite[] = [];
  for (const e of configFromVariables(ia, variables)) for (const m of meaningsOf(ia, e)) if (m.kind === 'alias') out.push(m.write);
  return out;
}

/**
 * git's GIT_CONFIG_PARAMETERS: entries `'key'='value'` or `'key=value'`, each single-quoted
 * with `'\''` for a quote and `'\!'` for `!`, separated by blanks. Text it cannot read gives one entry of unknown
 * key and value (the safe side).
 */
export function parseConfigParameters(text: string): [string | null, string | null][] {
  const out: [string | null, string | null][] = [];
  let i = 0;
  const quoted = (): string | null => {
    if (text[i] !== "'") return null;
    let s = '';
    i++;
    for (;;) {
      const j = text.indexOf("'", i);
      if (j < 0) return null;
      s += text.slice(i, j);
      i = j + 1;
      // git's sq_quote writes ' and ! outside the quotes: '\'' and '\!'.
      if (text[i] === '\\' && (text[i + 1] === "'" || text[i + 1] === '!') && text[i + 2] === "'") {
        s += text[i + 1];
        i += 3;
      } else return s;
    }
  };
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const first = quoted();
    if (first === null) return [...out, [null, null]];
    if (text[i] === '=') {
      i++;
      const value = quoted();
      if (value === null) return [...out, [null, null]];
      out.push([first, value]);
    } else {
      // `'key'` alone is a boolean entry: no alias value (git refuses to run such an alias).
      const eq = first.indexOf('=');
      if (eq >= 0) out.push([first.slice(0, eq), first.slice(eq + 1)]);
    }
  }
  return out;
}
