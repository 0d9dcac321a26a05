/**
 * The alias definitions one line can bring into force, gathered once per line and per program
 * (only when a command first uses a word that may be an alias), and what a command that uses
 * or writes an alias may run. Program knowledge stays in the grammar data (`inline_aliases`);
 * the expansion itself is src/grammars/aliases.ts.
 */
import {
  aliasWrites,
  configFromVariables,
  configWrites,
  expandAliases,
  meaningsOf,
  unknownAliasWord,
  type AliasExpansion,
  type AliasSite,
  type AliasTable,
  type AliasValues,
  type AliasWrite,
  type ConfigWrite,
} from '../grammars/aliases.ts';
import { splitAliasWords } from '../grammars/split.ts';
import type { Grammars } from '../grammars/types.ts';
import { changedDirectories } from '../shell/index.ts';
import type { ShellCommand } from '../shell/types.ts';
import { ANY_ALIAS, type PolicyInput } from './contract.ts';
import { programName } from './facts.ts';

/**
 * Where else to look for a program's configuration than where the command runs: another
 * directory (`git -C dir`, `cd dir && …`; relative to the command's working directory) and
 * variables the line sets (`GIT_DIR=…`, `HOME=…`, `--git-dir=…`), which override the caller's
 * environment.
 */
export interface AliasWhere {
  dir?: string;
  env?: Readonly<Record<string, string>>;
  /** A configuration file included on the line (`-c include.path=F`, `git config include.path F`). */
  include?: string;
}

/**
 * Reads a program's configured aliases (lower-cased name → values, lowest precedence first;
 * the name `*` for "could not be read in full"), where the command runs or `where` says.
 */
export type AliasReader = (program: string, where?: AliasWhere) => Readonly<Record<string, readonly string[]>> | null;

const NO_VARIABLES: ReadonlyMap<string, AliasValues> = new Map();
/** Other places one command's configuration may come from; more count as unknown. */
const MAX_WHERES = 8;

type Table = { byName: Map<string, (string | null)[]>; anyName: (string | null)[] };

/** Values kept per name; past that one unknown value stands for the rest (bounded work). */
const MAX_VALUES = 32;

function addTo(t: Table, name: string | null, value: string | null): void {
  const list = name === null ? t.anyName : (t.byName.get(name) ?? t.byName.set(name, []).get(name)!);
  if (list.length >= MAX_VALUES) {
    if (!list.includes(null)) list.push(null);
  } else if (!list.includes(value)) list.push(value);
}

function addConfigured(t: Table, configured: Readonly<Record<string, readonly string[]>> | null | undefined): void {
  if (configured === null || configured === undefined) return;
  for (const [name, values] of Object.entries(configured)) {
    if (name === ANY_ALIAS) addTo(t, null, null);
    else for (const v of values) addTo(t, name.toLowerCase(), v);
  }
}

export class LineAliases {
  private readonly lineTables = new Map<string, Table>();
  private readonly read = new Map<string, Readonly<Record<string, readonly string[]>> | null>();
  private readonly lineWheres = new Map<string, (AliasWhere | null)[]>();
  private readonly lineIncludes = new Map<string, (AliasWhere | null)[]>();
  private readonly merged = new Map<string, Table>();
  private readonly expanded = new Map<string, AliasExpansion[]>();

  constructor(
    private readonly grammars: Grammars,
    private readonly input: PolicyInput,
    private readonly readAliases: AliasReader | undefined,
    private readonly commands: readonly ShellCommand[],
    private readonly variables: ReadonlyMap<string, AliasValues> | null,
  ) {}

  /** The ways `cmd` (of `program`, which has a grammar with inline aliases) may run. */
  expansions(cmd: ShellCommand, program: string): AliasExpansion[] {
    // The same command again on the line expands the same way (the definitions are the line's).
    const key = `${program}\u0001${cmd.argv.join('\u0000')}\u0001${cmd.dynamic.join(',')}`;
    const known = this.expanded.get(key);
    if (known !== undefined) return known;
    const out = this.expand(cmd, program);
    this.expanded.set(key, out);
    return out;
  }

  private expand(cmd: ShellCommand, program: string): AliasExpansion[] {
    const g = this.grammars[program]!;
    const out: AliasExpansion[] = [];
    const used = expandAliases(cmd.argv, cmd.dynamic, g, (site) => this.table(program, site), (v) => this.variables?.get(v));
    if (used !== null) out.push(...used);
    for (const w of aliasWrites(cmd.argv, cmd.dynamic, g)) out.push(writtenAlias(cmd.argv[0]!, g.inline_aliases!.prefix, w));
    return out;
  }

  /** Definitions for a command of `program` at `site`: the line's, plus its configuration's. */
  private table(program: string, site: AliasSite): AliasTable {
    const base = this.lineTable(program);
    const wheres = this.readAliases === undefined ? [] : [...this.siteWheres(site), ...this.wheresOfLine(program)];
    if (wheres.length === 0) return base;
    // Commands of a line mostly share their site: merge once per program and site.
    const key = `${program}\0${JSON.stringify(wheres)}`;
    const known = this.merged.get(key);
    if (known !== undefined) return known;
    const t: Table = { byName: new Map([...base.byName].map(([k, v]) => [k, [...v]])), anyName: [...base.anyName] };
    for (const where of wheres.length > MAX_WHERES ? [null] : wheres) {
      if (where === null) addTo(t, null, null);
      else addConfigured(t, this.configured(program, where));
    }
    this.merged.set(key, t);
    return t;
  }

  /** What the line defines (writes, variables) and the configuration where the command runs. */
  private lineTable(program: string): Table {
    let t = this.lineTables.get(program);
    if (t !== undefined) return t;
    const ia = this.grammars[program]!.inline_aliases!;
    t = { byName: new Map(), anyName: [] };
    addConfigured(t, this.input.program_aliases?.[program] ?? this.configured(program, undefined));
    const includes: (AliasWhere | null)[] = [];
    for (const e of this.lineEntries(program)) {
      for (const m of meaningsOf(ia, e)) {
        if (m.kind === 'alias') addTo(t, m.write.name, m.write.value);
        else includes.push(m.path === null ? null : { include: m.path });
      }
    }
    this.lineIncludes.set(program, includes);
    this.lineTables.set(program, t);
    return t;
  }

  /** Configuration entries the line may set: `git config k v` anywhere, and through variables. */
  private lineEntries(program: string): ConfigWrite[] {
    const g = this.grammars[program]!;
    const out: ConfigWrite[] = [];
    for (const c of this.commands) {
      if (c.opaque || c.argv.length < 2 || programName(c.argv[0]!) !== program) continue;
      out.push(...configWrites(c.argv, c.dynamic, g));
    }
    out.push(...configFromVariables(g.inline_aliases!, this.variables ?? NO_VARIABLES));
    return out;
  }

  private configured(program: string, where: AliasWhere | undefined): Readonly<Record<string, readonly string[]>> | null {
    const key = `${program}\0${JSON.stringify(where ?? null)}`;
    if (!this.read.has(key)) this.read.set(key, this.readAliases?.(program, where) ?? null);
    return this.read.get(key) ?? null;
  }

  /** The command's own `-C` chain and `--git-dir`. */
  private siteWheres(site: AliasSite): (AliasWhere | null)[] {
    const out: (AliasWhere | null)[] = [];
    if (site.dirs.length > 0) {
      let dir: string | null = '';
      for (const d of site.dirs) dir = dir === null || d === null ? null : d.startsWith('/') || dir === '' ? d : `${dir}/${d}`;
      out.push(dir === null ? null : { dir });
    }
    for (const [name, value] of site.vars) out.push(value === null ? null : { env: { [name]: value } });
    for (const include of site.includes) out.push(include === null ? null : { include });
    return out;
  }

  /** Directories the line changes to, and configuration variables it sets. */
  private wheresOfLine(program: string): (AliasWhere | null)[] {
    const known = this.lineWheres.get(program);
    if (known !== undefined) return known;
    const out: (AliasWhere | null)[] = changedDirectories(this.commands).map((dir) => (dir === null ? null : { dir }));
    out.push(...(this.lineIncludes.get(program) ?? []));
    for (const name of this.grammars[program]!.inline_aliases!.config_vars ?? []) {
      for (const value of this.variables?.get(name) ?? []) out.push(value === null ? null : { env: { [name]: value } });
    }
    this.lineWheres.set(program, out);
    return out;
  }
}

/** What writing an alias amounts to: running its value (`git config alias.p 'push -f'` → `git push -f`). */
function writtenAlias(program: string, prefix: string, w: AliasWrite): AliasExpansion {
  const label = `${program} config ${prefix}${w.name ?? '*'}`;
  if (w.value === null) return { kind: 'argv', argv: [program, unknownAliasWord(prefix, w.name)], dynamic: [1], label };
  if (w.value.startsWith('!')) return { kind: 'shell', text: w.value.slice(1), label };
  return { kind: 'argv', argv: [program, ...splitAliasWords(w.value)], dynamic: [], label };
}
