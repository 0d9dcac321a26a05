/**
 * Where script text came from: which earlier commands on the line wrote or fetched a script a
 * later command runs (`curl -o x.sh …; bash x.sh`, `… > x.sh`, `wget URL/x.sh`), which pipeline
 * stages fed a command (`curl … | sh`), and which substitutions made a text (`bash -c "$(curl …)"`).
 * Recorded as the walk goes, looked up only when a script runs (ShellCommand.script_from).
 */
import type { Script, Word } from './ast.ts';
import type { Stdin, Walker } from './context.ts';
import type { ScriptSource, ShellCommand } from './types.ts';
import { type ArgWord, wordText } from './word-value.ts';
import type { WorkBudget } from './work.ts';

/** At most this many producers are recorded per script (the first ones on the line). */
export const MAX_SOURCES = 32;

/** What writersOf looks paths up in: positions in `Walker.out` / `written`, ascending. */
interface NameIndex {
  /** `out` is indexed below this position, `written` below `written`. */
  out: number;
  written: number;
  /** samePath of each argument word (not argv[0]) → the commands holding it. */
  args: Map<string, number[]>;
  /** The last segment of each URL argument → the commands holding it. */
  urls: Map<string, number[]>;
  /** samePath of each writing redirection's target → its entries in `written`. */
  targets: Map<string, number[]>;
}

export class Provenance {
  /**
   * Targets of writing redirections seen so far (`> x.sh`), with the commands that wrote them;
   * compared only when a script runs.
   */
  readonly written: Array<{ target: Word; by: ShellCommand[] }> = [];
  /** The commands found in each substitution (`$(…)`, `<(…)`), for ShellCommand.script_from. */
  subOut: Map<Script, ShellCommand[]> | null = null;
  /** Commands of a later pipeline stage → the commands of the earlier stages that fed them. */
  private fedBy: Map<ShellCommand, { first: number; end: number }> | null = null;
  /** writersOf's index (nameIndex), made when a line first runs a script file. */
  private names: NameIndex | null = null;
  private readonly out: ShellCommand[];
  private readonly work: WorkBudget;

  constructor(w: Pick<Walker, 'out' | 'work'>) {
    this.out = w.out;
    this.work = w.work;
  }

  /** The commands `out[mark…]` were found in the substitution `body`. */
  substituted(body: Script, mark: number): void {
    if (this.out.length > mark) (this.subOut ??= new Map()).set(body, this.out.slice(mark));
  }

  /** `out[end…]` came from a later pipeline stage fed by `out[first, end)` (`curl … | tee x.sh`). */
  fed(first: number, end: number): void {
    // Kept as a range of `out`, which only grows below `end`: linear for long pipelines.
    const fed = { first, end };
    const map = (this.fedBy ??= new Map());
    for (let k = end; k < this.out.length; k++) map.set(this.out[k] as ShellCommand, fed);
  }

  /** The writing redirections `written[from…]` were made by `out[mark…]` (`curl URL > x.sh`). */
  wroteBy(from: number, mark: number): void {
    if (this.written.length <= from) return;
    const by = this.out.slice(mark);
    for (let k = from; k < this.written.length; k++) (this.written[k] as { by: ShellCommand[] }).by = by;
  }

  /**
   * The commands earlier on the line that wrote or named `pathValue` (a redirection into it, an
   * argument naming it, a URL whose last segment is its name: `wget https://x/install.sh`), with
   * the pipeline stages that fed them: the first MAX_SOURCES whose program is known, in order
   * (what sourcesOf keeps); null when none did. Compared as written (`./x.sh` and `x.sh` are one
   * path). Looked up in an index of the line's words made on first use and extended as the line
   * grows, and every step is charged: a line that runs many scripts stays linear.
   */
  writersOf(pathValue: string): ShellCommand[] | null {
    const ix = this.nameIndex();
    const key = samePath(pathValue);
    const targets = ix.targets.get(key);
    const named = ix.args.get(key);
    const urls = key.includes('/') ? undefined : ix.urls.get(key);
    if (targets === undefined && named === undefined && urls === undefined) return null;
    const by: ShellCommand[] = [];
    const seen = new Set<ShellCommand>();
    let steps = 0;
    const full = (): boolean => by.length >= MAX_SOURCES;
    const add = (c: ShellCommand): void => {
      steps++;
      if (!isProducer(c) || seen.has(c)) return;
      seen.add(c);
      by.push(c);
    };
    const withFed = (c: ShellCommand): void => {
      add(c);
      const fed = this.fedBy?.get(c);
      if (fed !== undefined) for (let k = fed.first; k < fed.end && !full(); k++) add(this.out[k] as ShellCommand);
    };
    for (const t of targets ?? []) {
      for (const c of (this.written[t] as { by: ShellCommand[] }).by) {
        if (full()) break;
        withFed(c);
      }
    }
    // The commands naming it, in their order on the line (two ascending lists merged).
    const a = named ?? [];
    const u = urls ?? [];
    for (let i = 0, j = 0; (i < a.length || j < u.length) && !full(); ) {
      // A command under both lists is added once (`seen`).
      const next = j >= u.length || (i < a.length && (a[i] as number) <= (u[j] as number)) ? (a[i++] as number) : (u[j++] as number);
      withFed(this.out[next] as ShellCommand);
    }
    this.work.charge(steps + 1, 'the commands that wrote the scripts run', 0);
    return by;
  }

  /** writersOf's index, brought up to date with what the line has reported and written so far. */
  private nameIndex(): NameIndex {
    const ix = (this.names ??= { out: 0, written: 0, args: new Map(), urls: new Map(), targets: new Map() });
    let units = 0;
    for (; ix.out < this.out.length; ix.out++) {
      const argv = (this.out[ix.out] as ShellCommand).argv;
      for (let i = 1; i < argv.length; i++) {
        const w = argv[i] as string;
        units += w.length + 2;
        indexAt(ix.args, samePath(w), ix.out);
        if (w.includes('://')) {
          const name = urlName(w);
          if (name !== null) indexAt(ix.urls, name, ix.out);
        }
      }
    }
    for (; ix.written < this.written.length; ix.written++) {
      const t = wordText((this.written[ix.written] as { target: Word }).target).value;
      units += t.length + 2;
      indexAt(ix.targets, samePath(t), ix.written);
    }
    if (units > 0) this.work.charge(units, 'the commands that wrote the scripts run', 0);
    return ix;
  }

  /** What produced script text: its own record (stdin), and the commands substituted in it. */
  textSources(text: ArgWord): ScriptSource[] {
    const subs = text.cmdSub !== undefined ? [text.cmdSub] : text.procSub !== undefined ? [text.procSub] : (text.subs ?? []);
    const from = [...(text.from ?? [])];
    for (const s of subs) from.push(...sourcesOf(this.subOut?.get(s) ?? [], 'substitution'));
    return from;
  }

  /** The commands substituted anywhere in a word (a here-document body, a `<<<` word). */
  wordProducers(w: Word): ShellCommand[] {
    const out: ShellCommand[] = [];
    for (const p of w.parts) if (p.type === 'dyn') for (const sub of p.subs) out.push(...(this.subOut?.get(sub.body) ?? []));
    return out;
  }

  /** The producers found in a substitution, as ScriptSource. */
  subSources(body: Script): ScriptSource[] {
    return sourcesOf(this.subOut?.get(body) ?? [], 'substitution');
  }

  /** The pipeline stages `out[first…]` as producers, found once for a whole pipeline. */
  producers(first: number): Producers {
    return new Producers(this.out, first, this.work);
  }
}

/** `stdin` with the commands that produced it recorded (none: unchanged). */
export function withSources(stdin: Stdin, cmds: readonly ShellCommand[], how: ScriptSource['how']): Stdin {
  const from = sourcesOf(cmds, how);
  return from.length === 0 ? stdin : { ...stdin, from: [...(stdin.from ?? []), ...from] };
}

/** `./x.sh`, `x.sh`, `a//b` → one spelling, to compare a script's path with files written earlier. */
export function samePath(p: string): string {
  return p.replace(/\/+/g, '/').replace(/^(?:\.\/)+/, '').replace(/(?:\/\.)+$/, '');
}

function indexAt(map: Map<string, number[]>, key: string, at: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [at]);
  else if (list[list.length - 1] !== at) list.push(at);
}

/** A command that can be a producer (sourcesOf): its program is known. */
const isProducer = (c: ShellCommand): boolean => !c.opaque && c.argv.length > 0;

/**
 * The producers among `out[first, end)` (the first MAX_SOURCES), for a pipeline's stages: each
 * stage asks with a larger `end`; the scan goes on from where it stopped (linear per pipeline).
 */
export class Producers {
  private at: number;
  private readonly found: Array<{ at: number; cmd: ShellCommand }> = [];
  constructor(
    private readonly out: readonly ShellCommand[],
    first: number,
    private readonly work: WorkBudget,
  ) {
    this.at = first;
  }

  before(end: number): ShellCommand[] {
    const from = this.at;
    for (; this.at < end && this.found.length < MAX_SOURCES; this.at++) {
      const c = this.out[this.at] as ShellCommand;
      if (isProducer(c)) this.found.push({ at: this.at, cmd: c });
    }
    this.work.charge(this.at - from + 1, 'the commands that wrote the scripts run', 0);
    const out: ShellCommand[] = [];
    for (const f of this.found) if (f.at < end) out.push(f.cmd);
    return out;
  }
}

/** Producers as ScriptSource: commands whose program is known (an opaque one names nothing). */
export function sourcesOf(cmds: readonly ShellCommand[], how: ScriptSource['how']): ScriptSource[] {
  const out: ScriptSource[] = [];
  for (const c of cmds) {
    if (!isProducer(c)) continue;
    if (out.length >= MAX_SOURCES) break;
    out.push({ argv: c.argv, dynamic: c.dynamic, how });
  }
  return out;
}

/** `from` without repeats (same way, same argv), at most MAX_SOURCES. */
export function dedupeSources(from: readonly ScriptSource[]): ScriptSource[] {
  const out: ScriptSource[] = [];
  for (const s of from) {
    if (out.length >= MAX_SOURCES) break;
    if (!out.some((o) => o.how === s.how && o.argv === s.argv)) out.push(s);
  }
  return out;
}

/** The last path segment of a URL (`https://x/a/install.sh?x=1` → `install.sh`), or null. */
export function urlName(word: string): string | null {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*\/(?:[^?#]*\/)?([^/?#]+)(?:[?#].*)?$/.exec(word);
  return m?.[1] ?? null;
}

/** The opaque command standing for a program read from standard input that is not known. */
export function unseenStdin(prog: string, via: string[], from: readonly ScriptSource[] | undefined): ShellCommand {
  const cmd: ShellCommand = { argv: [prog], dynamic: [0], opaque: true, via, unseen: 'runtime' };
  if (from !== undefined && from.length > 0) cmd.script_from = dedupeSources(from);
  return cmd;
}

/** The opaque command standing for a script that cannot be seen (`runtime` or `unreadable`). */
export function unseenCommand(what: string, via: readonly string[], why: 'runtime' | 'unreadable', from?: readonly ScriptSource[]): ShellCommand {
  const cmd: ShellCommand = { argv: [what], dynamic: why === 'runtime' ? [0] : [], opaque: true, via: via.slice(), unseen: why };
  if (from !== undefined && from.length > 0) cmd.script_from = dedupeSources(from);
  return cmd;
}
