/**
 * The one reader: a command's words + its program's data (types.ts) → subcommand path,
 * normalised options and their values, operands, what the command runs, which files it
 * touches, and the words rules give a role. Every program is read by this code; what differs
 * between programs is data. A program without data is read with the default grammar (the first
 * non-option word is its subcommand; every option is a flag).
 */
import { splitAliasWords, splitEnvString } from './split.ts';
import { NO_MARKS, roleMarks } from './role-marks.ts';
import type {
  Access,
  CommandGrammar,
  FileUse,
  FilesSpec,
  Grammars,
  ProgramGrammar,
  ReadArgs,
  Reading,
  Run,
  RunsSpec,
  Word,
} from './types.ts';

interface Level {
  readonly g: CommandGrammar;
  readonly value: ReadonlySet<string>;
  readonly nextWord: ReadonlySet<string>;
  readonly optional: ReadonlySet<string>;
  readonly known: ReadonlySet<string>;
  readonly longs: readonly string[];
  readonly syn: ReadonlyMap<string, readonly string[]>;
  /** The compiled level of a subcommand, or undefined when it has none. */
  sub(name: string): Level | undefined;
  readonly aliases: ReadonlyMap<string, string>;
  /** The next non-option word names a subcommand. */
  readonly nested: boolean;
  /** Options are checked: strict, or the level runs something. */
  readonly careful: boolean;
  readonly strict: boolean;
  readonly numeric: boolean;
  readonly singleDash: boolean;
  readonly plus: boolean;
  readonly optionsFirst: boolean;
  readonly dash: string | undefined;
  readonly stopAfter: ReadonlySet<string>;
  readonly split: ReadonlySet<string>;
  readonly roles: ReadonlyArray<readonly [string, string]>;
}

interface Program {
  root: Level;
  inherit: boolean;
  shortEquals: boolean;
  abbreviations: boolean;
  inlineAliases: { option: string; prefix: string } | null;
  commands: ReadonlySet<string>;
  roleKinds: ProgramGrammar['role_kinds'];
}

/** Aliases may expand to aliases; git stops at loops, we stop after a few steps. */
const MAX_ALIAS_STEPS = 8;
/** `env -S` strings may hold `-S` again; bounded. */
const MAX_SPLITS = 16;

const LEAF_GRAMMAR: CommandGrammar = {};

function compileLevel(g: CommandGrammar): Level {
  const r: RunsSpec = g.runs ?? {};
  const optional = new Set(g.optional_value ?? []);
  const value = new Set(g.value_options ?? []);
  for (const o of [...(r.shell_options ?? []), ...(r.code_options ?? []), ...(g.split_options ?? [])]) if (!optional.has(o)) value.add(o);
  const syn = new Map<string, string[]>();
  // for-in, not Object.entries with `[a, b]`: destructuring runs the iterator protocol in code run once.
  const synonyms = g.synonyms ?? {};
  for (const a in synonyms) {
    const b = synonyms[a]!;
    syn.set(a, [...(syn.get(a) ?? []), b]);
    syn.set(b, [...(syn.get(b) ?? []), a]);
  }
  const nextWord = new Set(g.next_word_values ?? []);
  const known = new Set<string>([
    ...value,
    ...nextWord,
    ...optional,
    ...(g.long_options ?? []),
    ...(g.flags ?? []),
    ...syn.keys(),
    ...(g.stop_after ?? []),
    ...Object.keys(r.exec_options ?? {}),
    ...(r.no_run ?? []),
    ...(r.shell_flags ?? []),
    ...(r.stdin_flags ?? []),
    ...(r.exec_flags ?? []),
    ...(r.command_when ?? []),
  ]);
  const longs = [...known].filter((o) => o.startsWith('--'));
  // Subcommand levels compile on first lookup: a hook reads one command, and compiling every
  // level of git's grammar up front was over a millisecond of each hook's start-up.
  const raw = g.subcommands ?? {};
  const compiled = new Map<string, Level>();
  return {
    g,
    value,
    nextWord,
    optional,
    known,
    longs,
    syn,
    sub(name: string): Level | undefined {
      let level = compiled.get(name);
      if (level === undefined && Object.hasOwn(raw, name)) {
        level = compileLevel(raw[name] ?? LEAF_GRAMMAR);
        compiled.set(name, level);
      }
      return level;
    },
    aliases: new Map(Object.entries(g.aliases ?? {})),
    nested: g.nested === true || Object.keys(raw).length > 0,
    // Settings alone (`git -c core.pager=…`) do not make a program's options a matter of care.
    careful: g.strict === true || (g.runs !== undefined && Object.keys(g.runs).some((k) => k !== 'shell_settings')),
    strict: g.strict === true,
    numeric: g.numeric === true,
    singleDash: g.single_dash_long === true,
    plus: g.plus_options === true,
    optionsFirst: g.options_first === true,
    dash: g.dash,
    stopAfter: new Set(g.stop_after ?? []),
    split: new Set(g.split_options ?? []),
    roles: Object.entries(g.roles ?? {}),
  };
}

/** The level of a subcommand without data of its own (made once). */
const LEAF = compileLevel(LEAF_GRAMMAR);

const compiledPrograms = new WeakMap<ProgramGrammar, Program>();

function compileProgram(g: ProgramGrammar): Program {
  let p = compiledPrograms.get(g);
  if (!p) {
    p = {
      root: compileLevel(g),
      inherit: g.inherit_options === true,
      shortEquals: g.short_equals === true,
      abbreviations: g.abbreviations === true,
      inlineAliases: g.inline_aliases ?? null,
      commands: new Set(g.commands ?? []),
      roleKinds: g.role_kinds,
    };
    compiledPrograms.set(g, p);
  }
  return p;
}

const runsAnything = new WeakMap<CommandGrammar, boolean>();

function levelRuns(g: CommandGrammar): boolean {
  let v = runsAnything.get(g);
  if (v === undefined) {
    v = g.runs !== undefined || g.split_options !== undefined || Object.values(g.subcommands ?? {}).some((s) => s !== null && s !== undefined && levelRuns(s));
    runsAnything.set(g, v);
  }
  return v;
}

interface Gate {
  /** Names of subcommands that lead to a run (and their aliases). */
  readonly exact: ReadonlySet<string>;
  /** Lower-case strings looked for inside `NAME=VALUE` words (an inline alias, a setting). */
  readonly inside: readonly string[];
}

const gates = new WeakMap<ProgramGrammar, Gate | boolean>();

/**
 * Whether a command of this program may run something, from its words alone: the shell
 * analysis reads only those commands. False: the program never runs anything; true: it may;
 * otherwise only when a word is the name of a subcommand that leads to a run (`git rebase`,
 * `git submodule`), or a `NAME=VALUE` word holds one or a setting that runs shell text
 * (`-c alias.x=rebase`, `-c core.pager=…`).
 */
export function mayRun(g: ProgramGrammar, words: readonly Word[]): boolean {
  let gate = gates.get(g);
  if (gate === undefined) {
    const rootRuns = Object.keys(g.runs ?? {}).filter((k) => k !== 'shell_settings');
    if (!levelRuns(g)) gate = false;
    else if (rootRuns.length > 0 || g.split_options !== undefined || g.inherit_options === true) gate = true;
    else {
      const subs = g.subcommands ?? {};
      const names = Object.keys(subs).filter((k) => subs[k] != null && levelRuns(subs[k]));
      const aliases = g.aliases ?? {};
      for (const alias in aliases) if (names.includes(aliases[alias]!)) names.push(alias);
      const settings = Object.values(g.runs?.shell_settings ?? {}).flatMap((list) => list.map((n) => n.toLowerCase()));
      gate = { exact: new Set(names), inside: [...names.map((n) => n.toLowerCase()), ...settings] };
    }
    gates.set(g, gate);
  }
  if (typeof gate === 'boolean') return gate;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.value;
    if (gate.exact.has(w)) return true;
    if (!w.includes('=')) continue;
    const v = w.toLowerCase();
    for (const n of gate.inside) if (v.includes(n)) return true;
  }
  return false;
}

/**
 * The data of a program by the name it was run as: the name itself, or `NAME3.12` for a
 * `versioned` program. Returns the canonical name too.
 */
export function programData(name: string, grammars: Grammars): { name: string; grammar: ProgramGrammar } | undefined {
  let cache = lookups.get(grammars);
  if (cache === undefined) lookups.set(grammars, (cache = new Map()));
  let found = cache.get(name);
  if (found === undefined) {
    found = lookUp(name, grammars) ?? null;
    // Bounded: a long session may see many distinct program names.
    if (cache.size < 4096) cache.set(name, found);
  }
  return found ?? undefined;
}

const lookups = new WeakMap<Grammars, Map<string, { name: string; grammar: ProgramGrammar } | null>>();

function lookUp(name: string, grammars: Grammars): { name: string; grammar: ProgramGrammar } | undefined {
  if (Object.hasOwn(grammars, name)) return { name, grammar: grammars[name]! };
  const last = name.charCodeAt(name.length - 1);
  if (last < 48 || last > 57) return undefined;
  const m = /^(.*?[^0-9.])[0-9][0-9.]*$/.exec(name);
  if (m !== null && Object.hasOwn(grammars, m[1]!)) {
    const g = grammars[m[1]!]!;
    if (g.versioned === true) return { name: m[1]!, grammar: g };
  }
  return undefined;
}

/** `git-push` → `['git', 'push']` when the program `git` is `dashed`; undefined otherwise. */
export function dashedCommand(name: string, grammars: Grammars): [string, string] | undefined {
  const i = name.indexOf('-');
  if (i <= 0 || i === name.length - 1) return undefined;
  const base = name.slice(0, i);
  return Object.hasOwn(grammars, base) && grammars[base]!.dashed === true ? [base, name.slice(i + 1)] : undefined;
}

const DEFAULT_GRAMMAR: ProgramGrammar = { nested: true };

interface Opt<W extends Word> {
  name: string;
  names: string[];
  value: W | null;
}

const withValue = <W extends Word>(w: W, value: string, dynamic = w.dynamic): W => ({ ...w, value, dynamic });

/**
 * What a reading includes beyond options, operands and roles: `all`, `runs` (no files: the
 * shell analysis) or `args` (neither: rules).
 */
export type ReadMode = 'all' | 'runs' | 'args';

/** Reads `input` (argv[0] included) with `grammar` (the default one when undefined). */
export function readWords<W extends Word>(input: readonly W[], grammar: ProgramGrammar | undefined, programName?: string, mode: ReadMode = 'all'): Reading<W> {
  return new WordReader(input, compileProgram(grammar ?? DEFAULT_GRAMMAR), programName ?? input[0]?.value ?? '').read(mode);
}

/**
 * One reading. A class rather than a function with a dozen closures: it runs for every command
 * a rule looks into, and closures made on each call were most of its time and garbage.
 */
class WordReader<W extends Word> {
  readonly words: W[];
  readonly out: Reading<W>;
  readonly opts: Opt<W>[] = [];
  readonly execRuns: Run<W>[] = [];
  readonly chain: Level[];
  level: Level;
  /** The levels whose options count here: the current one, or every one so far (`inherit_options`). */
  act: readonly Level[];
  expectSub: boolean;
  endOfOptions = false;
  aliasSteps = 0;
  splits = 0;
  levelOperands = 0;
  /** Index of the first option word after an operand (for `files.leading`). */
  firstOption = -1;

  constructor(
    input: readonly W[],
    readonly prog: Program,
    readonly program: string,
  ) {
    this.words = input.slice();
    this.out = {
      program,
      words: this.words,
      subcommand: [],
      subcommand_dynamic: false,
      flags: new Set(),
      values: new Map(),
      operands: [],
      unknown: null,
      runs: [],
      self: true,
      files: [],
      roles: new Map(),
      marks: NO_MARKS,
    };
    this.level = prog.root;
    this.chain = [prog.root];
    this.act = [prog.root];
    this.expectSub = prog.root.nested;
  }

  private takesValue(opt: string): boolean {
    for (const l of this.act) if (l.value.has(opt)) return true;
    return false;
  }

  private isOptional(opt: string): boolean {
    for (const l of this.act) if (l.optional.has(opt)) return true;
    return false;
  }

  private isKnown(opt: string): boolean {
    for (const l of this.act) if (l.known.has(opt)) return true;
    return false;
  }

  private strict(): boolean {
    for (const l of this.act) if (l.strict) return true;
    return false;
  }

  private careful(): boolean {
    for (const l of this.act) if (l.careful) return true;
    return false;
  }

  private notUnderstood(why: string): void {
    this.out.unknown ??= why;
  }

  private spellings(opt: string): string[] {
    const all = [opt];
    for (const l of this.act) {
      const syn = l.syn.get(opt);
      if (syn !== undefined) for (const s of syn) if (!all.includes(s)) all.push(s);
    }
    return all;
  }

  private record(name: string, value: W | null, at: number): number {
    const names = this.spellings(name);
    const out = this.out;
    for (const n of names) out.flags.add(n);
    if (value !== null) {
      for (const n of names) {
        const list = out.values.get(n);
        if (list) list.push(value.value);
        else out.values.set(n, [value.value]);
      }
    }
    this.opts.push({ name, names, value });
    for (const l of this.act) {
      if (l.stopAfter.size > 0 && names.some((n) => l.stopAfter.has(n))) this.endOfOptions = true;
      if (value !== null && l.split.size > 0 && names.some((n) => l.split.has(n))) this.split(name, value, at);
    }
    return at;
  }

  /** `env -S STRING`: its words are read in its place; option reading goes on there. */
  private split(name: string, value: W, at: number): void {
    if (value.dynamic) this.notUnderstood(`${name} with a run-time string`);
    else if (++this.splits > MAX_SPLITS) this.notUnderstood(`${name} nested too deeply`);
    else {
      const split = splitEnvString(value.value);
      if (split === null) this.notUnderstood(`${name} string not understood`);
      else this.words.splice(at + 1, 0, ...split.map((s) => withValue(value, s.value, s.dynamic)));
    }
  }

  private expandLong(name: string): string {
    if (!this.prog.abbreviations) return name;
    let exact = false;
    const hits: string[] = [];
    for (const l of this.act) {
      if (l.known.has(name)) exact = true;
      for (const o of l.longs) if (o.startsWith(name) && !hits.includes(o)) hits.push(o);
    }
    return !exact && hits.length === 1 ? hits[0]! : name;
  }

  /** A value in the next word; null (and not understood on strict levels) when there is none. */
  private nextValue(i: number, name: string): W | null {
    const v = this.words[i + 1];
    if (v === undefined) {
      if (this.strict()) this.notUnderstood(`option ${name} needs a value`);
      return null;
    }
    return v;
  }

  private execOption(name: string): readonly string[] | undefined {
    for (const l of this.act) {
      const e = l.g.runs?.exec_options;
      if (e !== undefined && Object.hasOwn(e, name)) return e[name];
    }
    return undefined;
  }

  /** Reads the option word at `i`; returns the index of the last word it used. */
  private readOption(i: number): number {
    const w = this.words[i]!;
    const v = w.value;
    if (w.dynamic && this.careful()) this.notUnderstood(`run-time option ${v}`);
    if (this.firstOption < 0 && this.out.operands.length > 0) this.firstOption = i;
    let numeric = false;
    let singleDash = false;
    for (const l of this.act) {
      numeric ||= l.numeric;
      singleDash ||= l.singleDash;
    }
    if (numeric && /^--?\d+$/.test(v)) return this.record('-#', withValue(w, v.replace(/^-/, '')), i);
    singleDash &&= v[0] === '-' && v[1] !== '-';
    if (singleDash || v.startsWith('--')) {
      const eq = v.indexOf('=');
      const raw = eq < 0 ? v : v.slice(0, eq);
      const terms = this.execOption(raw);
      if (terms !== undefined) return this.readExec(i, raw, terms);
      const name = singleDash ? raw : this.expandLong(raw);
      if (!this.isKnown(name)) {
        if (this.strict()) this.notUnderstood(`unknown option ${raw}`);
        if (singleDash) return this.record(name, null, i);
      }
      if (eq >= 0) {
        if (this.strict() && !this.takesValue(name) && !this.isOptional(name)) this.notUnderstood(`option ${name} takes no value`);
        return this.record(name, withValue(w, v.slice(eq + 1)), i);
      }
      if (this.takesValue(name)) return this.record(name, this.nextValue(i, name), i + 1);
      return this.record(name, null, i);
    }
    let used = i;
    for (let j = 1; j < v.length; j++) {
      const opt = `-${v[j]}`;
      if (this.takesNextWord(opt)) {
        // `-oe pipefail`: each such option takes the next unused word; the bundle goes on.
        used++;
        this.record(opt, this.words[used] ?? null, i);
        continue;
      }
      const optional = this.isOptional(opt);
      if (optional || this.takesValue(opt)) {
        let rest = v.slice(j + 1);
        if (rest !== '') {
          if (this.prog.shortEquals && rest[0] === '=') rest = rest.slice(1);
          return Math.max(this.record(opt, withValue(w, rest), i), used);
        }
        if (optional) return Math.max(this.record(opt, null, i), used);
        return Math.max(this.record(opt, this.nextValue(used, opt), used + 1), used);
      }
      if (!this.isKnown(opt) && this.strict()) this.notUnderstood(`unknown option ${v[0]}${v[j]}`);
      this.record(opt, null, i);
    }
    return Math.min(used, this.words.length - 1);
  }

  private takesNextWord(opt: string): boolean {
    for (const l of this.act) if (l.nextWord.size > 0 && l.nextWord.has(opt)) return true;
    return false;
  }

  /** `find … -exec CMD… ;`: the command ends at a terminator (`{} +`: a `+` right after `{}`). */
  private readExec(i: number, name: string, terms: readonly string[]): number {
    const words = this.words;
    const ends = (j: number): boolean =>
      terms.some((t) => {
        const parts = t.split(' ');
        const from = j - parts.length + 1;
        return from > i && parts.every((p, n) => words[from + n]?.value === p);
      });
    let j = i + 1;
    while (j < words.length && !ends(j)) j++;
    const repl = this.act.find((l) => l.g.runs?.exec_options !== undefined)?.g.runs?.replace;
    const argv = words.slice(i + 1, j).map((a) => (repl !== undefined && repl !== '' && a.value.includes(repl) ? withValue(a, a.value, true) : a));
    if (argv.length > 0) this.execRuns.push({ kind: 'command', argv, label: `${this.program} ${name}`, stdin: false });
    this.opts.push({ name, names: [name], value: null });
    this.out.flags.add(name);
    return j;
  }

  /** Settings whose value is shell text (`git -c core.pager=…`, `ssh -o ProxyCommand=…`), at any level reached. */
  private settings(): void {
    for (const l of this.chain) {
      const spec = l.g.runs?.shell_settings;
      if (spec === undefined) continue;
      for (const o of this.opts) {
        if (o.value === null) continue;
        const names = o.names.find((n) => Object.hasOwn(spec, n));
        if (names === undefined) continue;
        const m = /^\s*([^=\s]+)\s*(?:=|\s)\s*([\s\S]*)$/.exec(o.value.value);
        if (m === null) continue;
        const key = m[1]!.toLowerCase();
        const wanted = spec[names]!.some((k) => {
          const lower = k.toLowerCase();
          return lower.endsWith('.') ? key.startsWith(lower) : key === lower;
        });
        if (!wanted) continue;
        const text = m[2]!.replace(/^!/, '');
        if (text === '') continue;
        this.out.runs.push({ kind: 'shell', text: withValue(o.value, text), label: `${this.program} ${names} ${m[1]}` });
      }
    }
  }

  private dashOption(): string | undefined {
    for (const l of this.act) if (l.dash !== undefined) return l.dash;
    return undefined;
  }

  private plus(): boolean {
    for (const l of this.act) if (l.plus) return true;
    return false;
  }

  private optionsFirst(): boolean {
    for (const l of this.act) if (l.optionsFirst) return true;
    return false;
  }

  read(mode: ReadMode): Reading<W> {
    const { words, out, prog } = this;
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!;
      const v = w.value;
      if (!this.endOfOptions) {
        if (v === '--') {
          // Before the subcommand, `--` is skipped: the subcommand is still looked for.
          if (!this.expectSub) this.endOfOptions = true;
          continue;
        }
        if (v === '-') {
          const dash = this.dashOption();
          if (dash === '--') {
            this.endOfOptions = true;
            continue;
          }
          if (dash !== undefined) {
            this.record(dash, null, i);
            continue;
          }
        }
        if (v.length > 1 && (v[0] === '-' || (v[0] === '+' && this.plus()))) {
          i = this.readOption(i);
          continue;
        }
      }
      if (!this.expectSub) {
        out.operands.push(i);
        this.levelOperands++;
        if (this.optionsFirst() && this.levelOperands > (this.level.g.options_after ?? 0)) this.endOfOptions = true;
        continue;
      }
      if (w.dynamic) {
        out.subcommand_dynamic = true;
        this.expectSub = false;
        continue;
      }
      const level = this.level;
      const name = level.aliases.get(v) ?? v;
      if (level === prog.root && prog.inlineAliases && !prog.commands.has(name)) {
        const alias = inlineAlias(out.values.get(prog.inlineAliases.option), prog.inlineAliases.prefix, name);
        if (alias !== undefined && this.aliasSteps < MAX_ALIAS_STEPS) {
          this.aliasSteps++;
          const rest = words.slice(i + 1);
          if (alias.startsWith('!')) {
            out.shell_alias = [alias.slice(1), ...rest.map((r) => shellQuote(r.value))].join(' ');
            this.expectSub = false;
            this.endOfOptions = true;
            i = words.length;
            continue;
          }
          const expansion = splitAliasWords(alias).map((s) => withValue(w, s, false));
          words.splice(i, words.length - i, ...expansion, ...rest);
          i--;
          continue;
        }
      }
      out.subcommand.push(name);
      const next = level.sub(name) ?? LEAF;
      this.level = next;
      this.chain.push(next);
      this.act = prog.inherit ? this.chain : [next];
      this.expectSub = next.nested;
      this.levelOperands = 0;
      this.firstOption = -1;
    }
    this.finish(mode);
    return out;
  }

  /** What runs, the files and the roles, from the levels reached. */
  private finish(mode: ReadMode): void {
    const { out, words, chain, level } = this;
    const r = level.g.runs;
    if (r !== undefined && mode !== 'args') {
      const base = [this.program, ...out.subcommand].join(' ');
      readRuns(r, level, base, out.operands.map((k) => words[k]!), this.opts, this.execRuns, out, words[0]);
    }
    if (mode !== 'args') this.settings();
    // Files: the deepest level that describes them (`openssl enc` reads `-in` as openssl does).
    for (let k = mode === 'all' ? chain.length - 1 : -1; k >= 0; k--) {
      const f = chain[k]!.g.files;
      if (f === undefined) continue;
      out.files = readFiles(f, this.opts, out.operands, words, this.firstOption);
      break;
    }
    for (const l of chain) {
      for (const [key, role] of l.roles) {
        const found = key === 'operands' ? out.operands.map((k) => words[k]!.value) : (out.values.get(key) ?? []);
        if (found.length === 0) continue;
        out.roles.set(role, [...(out.roles.get(role) ?? []), ...found]);
      }
    }
    out.marks = roleMarks(out.roles, this.prog.roleKinds);
  }
}

function readRuns<W extends Word>(
  r: RunsSpec,
  level: Level,
  base: string,
  ops: W[],
  opts: readonly Opt<W>[],
  execRuns: Run<W>[],
  out: Reading<W>,
  first: W | undefined,
): void {
  const given = (list: readonly string[] | undefined): boolean => list !== undefined && opts.some((o) => o.names.some((n) => list.includes(n)));
  const noRun = opts.some((o) => o.names.some((n) => (r.no_run ?? []).includes(n)) && !(level.optional.has(o.name) && o.value !== null));
  const runs: Run<W>[] = [...execRuns];
  let speculative = false;
  if (out.unknown === null && !noRun) {
    for (const o of opts) {
      if (o.value === null) continue;
      if (r.shell_options !== undefined && o.names.some((n) => r.shell_options!.includes(n))) {
        runs.push({ kind: 'shell', text: o.value, label: `${base} ${r.shell_options[0]}` });
      } else if (r.code_options !== undefined && o.names.some((n) => r.code_options!.includes(n))) {
        runs.push({ kind: 'code', code: o.value, language: r.language ?? '', label: `${base} ${r.code_options[0]}` });
      }
    }
    const byOption = runs.length > execRuns.length;
    if (!byOption) {
      if (r.shell_flags !== undefined && given(r.shell_flags)) {
        const text = ops[0];
        if (text !== undefined) runs.push({ kind: 'shell', text, label: `${base} ${r.shell_flags[0]}`, args: ops.slice(1) });
      } else if (r.script_operand === true && ops.length > 0 && !given(r.stdin_flags)) {
        const rest = ops.slice(1);
        const script: Run<W> = { kind: 'script', path: ops[0]!, label: `${base} ${ops[0]!.value}` };
        if (rest.length > 0 || r.keeps_positional !== true) script.args = rest;
        runs.push(script);
      } else if (r.stdin_script === true) {
        runs.push({ kind: 'stdin_script', args: ops });
      }
      if (r.code_operand === true && ops[0] !== undefined && !given(r.code_file_options)) {
        runs.push({ kind: 'code', code: ops[0], language: r.language ?? '', label: base });
      }
      if (r.stdin_code === true && ops.length === 0) runs.push({ kind: 'stdin_code', language: r.language ?? '' });
      // A run-time first operand may be the flag or option itself (`X=-c; bash $X TEXT`): the
      // next operand is then read as the text or code too (never fewer commands than run).
      const next = ops[1];
      // (A process substitution, `<(…)`, is a file name, never an option.)
      if (ops[0]?.dynamic === true && next !== undefined && !/^[<>]\(/.test(ops[0].value)) {
        if (r.shell_flags !== undefined && !given(r.shell_flags)) {
          runs.push({ kind: 'shell', text: next, label: `${base} ${r.shell_flags[0]}`, args: ops.slice(2) });
          speculative = true;
        } else if (r.code_options !== undefined) {
          runs.push({ kind: 'code', code: next, language: r.language ?? '', label: `${base} ${r.code_options[0]}` });
          speculative = true;
        }
      }
    }
    if (r.shell_assignments === true) {
      for (const w of ops) {
        const eq = w.value.indexOf('=');
        if (eq > 0) runs.push({ kind: 'shell', text: withValue(w, w.value.slice(eq + 1)), label: `${base} ${w.value.slice(0, eq)}`, defines: w.value.slice(0, eq) });
      }
    }
    const text0 = ops[0];
    if (r.shell_first !== undefined && text0 !== undefined && ops.length >= r.shell_first && text0.value !== '' && !text0.value.startsWith('-')) {
      runs.push({ kind: 'shell', text: text0, label: base });
    }
    const enabled = r.command_when !== undefined ? given(r.command_when) : r.command === true || r.shell_operands === true;
    if (enabled && !byOption) commandRun(r, base, ops, opts, runs, given, first);
    else if (r.script_commands !== undefined && runs.length === 0 && isScriptCommand(r.script_commands, ops[0])) commandRun({ command: true }, base, ops, opts, runs, given, first);
  }
  out.runs = runs;
  const self = r.self ?? 'always';
  // `idle`: the program stands for nothing else when it runs no command or shell text of its
  // own (`bash` reading a script, `sudo -l`).
  out.self = out.unknown !== null || self === 'always' || speculative || (self === 'idle' && !runs.some((x) => x.kind === 'command' || x.kind === 'shell'));
}

/** The operand names a script that is a program of its own (`…/buckler.cjs`): RunsSpec.script_commands. */
function isScriptCommand(names: readonly string[], w: Word | undefined): boolean {
  if (w === undefined || w.dynamic) return false;
  const slash = w.value.lastIndexOf('/');
  return names.includes(w.value.slice(slash + 1).toLowerCase());
}

function commandRun<W extends Word>(
  r: RunsSpec,
  base: string,
  ops: W[],
  opts: readonly Opt<W>[],
  runs: Run<W>[],
  given: (list: readonly string[] | undefined) => boolean,
  first: W | undefined,
): void {
  let cmd = ops.slice(r.skip ?? 0);
  if (r.assignments === true) {
    let k = 0;
    // `NAME=value`; with a run-time part, only when NAME is a plain identifier (`PATH="$PATH"`).
    while (k < cmd.length && isAssignment(cmd[k]!)) k++;
    cmd = cmd.slice(k);
  }
  let after: W[] = [];
  if (r.until !== undefined) {
    const k = cmd.findIndex((w) => r.until!.includes(w.value));
    if (k >= 0) {
      after = cmd.slice(k);
      cmd = cmd.slice(0, k);
    }
  }
  const replOpt = r.replace_options === undefined ? undefined : opts.find((o) => o.names.some((n) => r.replace_options!.includes(n)));
  // The replacement string: an option's value; else the default, unless the program appends
  // its arguments instead when no option asks for one (xargs).
  const repl = replOpt !== undefined ? (replOpt.value?.value ?? r.replace ?? '') : r.appends === true ? undefined : r.replace;
  const mark = (w: W): W => (repl !== undefined && repl !== '' && w.value.includes(repl) ? withValue(w, w.value, true) : w);
  const asShell = r.shell_operands === true && !given(r.exec_flags);
  if (asShell) {
    if (cmd.length > 0 && r.until !== undefined && after.length > 0) {
      // `parallel CMD ::: A B`: CMD runs once per argument, the argument quoted in place of
      // the replacement string, or after CMD when it has none; `::::` (arguments from files)
      // is run-time.
      const text = joinWords(cmd);
      let sep = '';
      for (const w of after) {
        if (r.until.includes(w.value)) {
          sep = w.value;
          continue;
        }
        const arg = sep === r.until[0] && !w.dynamic ? shellQuote(w.value) : '$ARG';
        const dynamic = text.dynamic || w.dynamic || sep !== r.until[0];
        const value = repl !== undefined && repl !== '' && text.value.includes(repl) ? text.value.split(repl).join(arg) : `${text.value} ${arg}`;
        runs.push({ kind: 'shell', text: withValue(text, value, dynamic), label: base });
      }
    } else if (cmd.length > 0) {
      runs.push({ kind: 'shell', text: joinWords(cmd.map(mark)), label: base });
    } else {
      // `parallel ::: 'cmd a' 'cmd b'`: each argument is a command line.
      let sep = '';
      for (const w of after) {
        if (r.until?.includes(w.value) === true) sep = w.value;
        else if (sep === r.until?.[0]) runs.push({ kind: 'shell', text: w, label: base });
        else runs.push({ kind: 'shell', text: withValue(w, w.value, true), label: base });
      }
    }
    return;
  }
  const written = cmd.length === 0 && r.default_command !== undefined && first !== undefined ? [withValue(first, r.default_command, false)] : cmd;
  let argv = written.map(mark);
  if (argv.length === 0) return;
  if (r.appends === true && replOpt === undefined && first !== undefined) {
    argv = [...argv, withValue(first, `$${first.value.replace(/^.*\//, '').toUpperCase().replace(/[^A-Z0-9]/g, '_')}_ARGS`, true)];
  }
  const run: Run<W> = { kind: 'command', argv, label: base, stdin: r.no_stdin !== true };
  if (r.stdin_args !== undefined && !given(r.stdin_args)) {
    run.input = { argv: written, replace: replOpt === undefined ? null : (repl ?? '') };
    if (r.stdin_nul !== undefined && given(r.stdin_nul)) run.input.nul = true;
  }
  runs.push(run);
}

const isAssignment = (w: Word): boolean =>
  w.dynamic ? /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value) : /^[^=]+=/.test(w.value) && !w.value.startsWith('-');

/** Words joined by blanks, as `watch`, `eval` and `ssh` join them. */
export function joinWords<W extends Word>(ws: readonly W[]): W {
  const first = ws[0]!;
  return withValue(
    first,
    ws.map((w) => w.value).join(' '),
    ws.some((w) => w.dynamic),
  );
}

function readFiles<W extends Word>(spec: FilesSpec, opts: readonly Opt<W>[], operands: readonly number[], words: readonly W[], firstOption: number): FileUse<W>[] {
  let eff: FilesSpec = spec;
  const when = spec.when ?? {};
  for (const opt in when) {
    if (opts.some((o) => o.names.includes(opt))) eff = { ...eff, ...when[opt] };
  }
  const out: FileUse<W>[] = [];
  const push = (word: W, access: Access | 'none' | undefined): FileUse<W> | null => {
    if (access === undefined || access === 'none') return null;
    const use: FileUse<W> = { word, access };
    if (eff.recursive === true) use.recursive = true;
    if (eff.contents === true) use.contents = true;
    if (eff.whole === true) use.whole = true;
    out.push(use);
    return use;
  };
  let idx = eff.leading === true && firstOption >= 0 ? operands.filter((k) => k < firstOption) : operands.slice();
  const assigns = eff.assignments;
  if (assigns !== undefined) {
    idx = idx.filter((k) => {
      const w = words[k]!;
      const eq = w.value.indexOf('=');
      const name = eq > 0 ? w.value.slice(0, eq) : '';
      if (eq <= 0 || !Object.hasOwn(assigns, name)) return true;
      push(withValue(w, w.value.slice(eq + 1)), assigns[name]);
      return false;
    });
  }
  const files = idx.slice(eff.skip ?? 0).map((k) => words[k]!);
  // The destination (`cp A B DEST`, `-t DEST`): where the other operands go.
  let dest: { word: W; access: Access } | null = null;
  const sources: W[] = [];
  files.forEach((w, k) => {
    if (k === 0 && eff.first !== undefined) push(w, eff.first);
    else if (k === files.length - 1 && files.length >= 2 && eff.last !== undefined && eff.last !== 'none') {
      push(w, eff.last);
      dest = { word: w, access: eff.last };
    } else if (push(w, eff.operands) !== null) sources.push(w);
  });
  for (const o of opts) {
    if (o.value === null) continue;
    const direct = o.names.find((n) => Object.hasOwn(eff.options ?? {}, n));
    if (direct !== undefined && push(o.value, eff.options![direct]) !== null && eff.into === true && eff.options![direct] === 'write') dest = { word: o.value, access: 'write' };
    const at = o.names.find((n) => Object.hasOwn(eff.at_options ?? {}, n));
    const file = at === undefined ? null : atFile(o.value.value);
    if (file !== null) push(withValue(o.value, file), eff.at_options![at!]);
  }
  const d = dest as { word: W; access: Access } | null;
  if (eff.links !== undefined) {
    for (const w of sources) out.push({ word: w, access: 'write', link: { kind: eff.links, at: d?.word ?? null } });
  }
  if (eff.into === true && d !== null && d.access === 'write' && !d.word.dynamic) {
    // `cp hooks.json ~/.cursor/`: DEST may be a directory; the operand lands in it by its name.
    const base = d.word.value.replace(/\/+$/, '');
    for (const w of sources) {
      const name = w.dynamic ? '' : w.value.replace(/\/+$/, '').replace(/^.*\//, '');
      if (name === '' || name === '.' || name === '..' || name === '~' || name.includes('*') || name.includes('?') || name.includes('[')) continue;
      const into: FileUse<W> = { word: withValue(d.word, `${base === '' ? '' : base}/${name}`), access: d.access };
      if (eff.whole === true) into.whole = true;
      out.push(into);
    }
  }
  return out;
}

/**
 * The file an `@FILE` value names (`curl -d @f`), also after a field name (`-F k=@f;type=x`,
 * `-F 'k=<f'`, `--data-urlencode k@f`); null when it names none.
 */
function atFile(v: string): string | null {
  if (v.startsWith('@')) return v.length > 1 ? v.slice(1) : null;
  const m = /^[^=@<;]*(?:=[@<]|@)([^;]+)/.exec(v);
  return m === null ? null : (m[1] as string);
}

/** The string-only reading that rules use, for an argv from the shell analysis. */
export function readArgv(argv: readonly string[], dynamic: Iterable<number>, grammars: Grammars): ReadArgs {
  const dyn = Array.isArray(dynamic) ? (dynamic as readonly number[]) : [...dynamic];
  const words: Word[] = new Array<Word>(argv.length);
  for (let i = 0; i < argv.length; i++) words[i] = { value: argv[i]!, dynamic: dyn.length > 0 && dyn.includes(i) };
  const program = argv[0] ?? '';
  const data = programData(program, grammars);
  const r = readWords(words, data?.grammar, program, 'args');
  const out: ReadArgs = {
    program: r.program,
    subcommand: r.subcommand,
    subcommand_dynamic: r.subcommand_dynamic,
    flags: r.flags,
    values: r.values,
    positionals: r.operands.map((k) => r.words[k]!.value),
    roles: r.roles,
    marks: r.marks,
  };
  if (r.shell_alias !== undefined) out.shell_alias = r.shell_alias;
  return out;
}

/** The last `-c alias.NAME=VALUE` for NAME (git reads config keys case-insensitively). */
function inlineAlias(values: readonly string[] | undefined, prefix: string, name: string): string | undefined {
  if (!values) return undefined;
  let found: string | undefined;
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq < 0) continue;
    const key = v.slice(0, eq).toLowerCase();
    if (key === `${prefix}${name}`.toLowerCase()) found = v.slice(eq + 1);
  }
  return found;
}

function shellQuote(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
