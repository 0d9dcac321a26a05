/**
 * What rules can see of one simple command: its argv read with the program's data, including the
 * marks the data's `role_kinds` give its role words (`refspec.force`): the core knows roles and
 * marks, never programs.
 *
 * Everything beyond the program name is computed on first use: most commands of a line (`ls`,
 * `npm`, `grep`) meet no rule that looks past the program, and reading their argv with a
 * grammar was a third of an evaluation's time and most of its garbage (docs/performance.md).
 */
import { programData, readArgv } from '../grammars/reader.ts';
import type { Grammars, ReadArgs } from '../grammars/types.ts';
import type { ScriptSource, ShellCommand } from '../shell/types.ts';
import type { ToolPath } from './contract.ts';
import { commandPaths, pathEnv, toolPaths, type PathEnv, type PathFact } from './paths.ts';
import { commandTargets, type TargetContext, type TargetFacts } from './targets.ts';

/** No context: relative paths, `~` and `$HOME` are run-time. */
const NO_CONTEXT = pathEnv(undefined, undefined);

export interface CommandFacts {
  readonly cmd: ShellCommand;
  /** The name rules compare with (see programName); argv[0] as written when opaque. */
  readonly program: string;
  readonly opaque: boolean;
  /** Whether the program's data resolves inline aliases (`-c alias.x=…`). */
  readonly mayAlias: boolean;
  readonly read: ReadArgs;
  /** Literal argument words: argv[1..] without run-time words. */
  readonly words: ReadonlySet<string>;
  /** The paths it touches (computed on first use). */
  readonly paths: readonly PathFact[];
  /** A file-tool call, not a shell command: no program rule matches it, only `paths` conditions. */
  readonly tool: boolean;
  /** The home directory paths are resolved against (for `~` globs). */
  readonly home: string | null;
  /** Named locations from the context (`paths.location`). */
  readonly locations: Readonly<Record<string, readonly string[]>> | null;
  /** The event's project roots, normalised (`project` conditions). */
  readonly roots: readonly string[];
  /** Some argument word has a part known only at run time. */
  readonly dynamicWords: boolean;
  /** The producers of the script this command stands for (ShellCommand.script_from), read. */
  readonly scriptFrom: readonly ScriptFromFacts[];
  /** Names of the variables the command line assigns or exports anywhere (`line_sets`). */
  readonly lineSets: readonly string[];
  /**
   * The text it writes beyond its argument words (`text_contains`): the here-document or
   * here-string a command reads; for a file-tool call, the text the call writes. '' when none.
   */
  readonly writtenText: string;
  /** Where the command acts and whether that is production (targets.ts), read on first use. */
  readonly targets: TargetFacts;
}

export interface ScriptFromFacts {
  /** programName of the producer. */
  program: string;
  how: ScriptSource['how'];
  /** Its options, read with its grammar (computed on first use). */
  readonly flags: ReadonlySet<string>;
}

/**
 * The program name rules compare with: lower case, without `.exe` (`GIT` runs the same program
 * on a case-insensitive file system, `x.exe` on Windows).
 */
export function programName(word: string): string {
  const lower = word.toLowerCase();
  return lower.endsWith('.exe') ? lower.slice(0, -4) : lower;
}

class Facts implements CommandFacts {
  readonly program: string;
  readonly opaque: boolean;
  private readArgs: ReadArgs | undefined;
  private wordSet: Set<string> | undefined;
  private pathFacts: PathFact[] | undefined;
  private sources: ScriptFromFacts[] | undefined;
  private targetFacts: TargetFacts | undefined;

  constructor(
    readonly cmd: ShellCommand,
    private readonly grammars: Grammars,
    private readonly envSource: PathEnv | (() => PathEnv),
    private readonly toolPathList: readonly ToolPath[] | null = null,
    readonly lineSets: readonly string[] = [],
    private readonly targetContext: TargetContext | undefined = undefined,
    private readonly toolInput: unknown = undefined,
  ) {
    const first = cmd.argv[0] ?? '';
    this.opaque = cmd.opaque;
    this.program = cmd.opaque ? first : programName(first);
  }

  get tool(): boolean {
    return this.toolPathList !== null;
  }

  get writtenText(): string {
    if (this.toolPathList === null) return this.cmd.stdin_text ?? '';
    const parts: string[] = [];
    writtenStrings(this.toolInput, null, 0, parts);
    return parts.join('\n');
  }

  /** Made on first use: most commands never need their paths. */
  private get env(): PathEnv {
    const e = this.envSource;
    return typeof e === 'function' ? e() : e;
  }

  get home(): string | null {
    return this.env.home;
  }

  get locations(): Readonly<Record<string, readonly string[]>> | null {
    return this.env.locations;
  }

  get roots(): readonly string[] {
    return this.env.roots;
  }

  get dynamicWords(): boolean {
    return this.cmd.dynamic.some((i) => i > 0);
  }

  get paths(): readonly PathFact[] {
    if (this.pathFacts === undefined) {
      this.pathFacts = this.toolPathList !== null ? toolPaths(this.toolPathList, this.env) : commandPaths(this.cmd, this.grammars, this.program, this.env);
    }
    return this.pathFacts;
  }

  get targets(): TargetFacts {
    if (this.targetFacts === undefined) {
      const ctx = this.targetContext;
      const grammar = this.opaque || ctx === undefined ? undefined : programData(this.program, this.grammars)?.grammar;
      const { argv, dynamic } = this.cmd;
      // A role word is (the end of) a run-time argument word (`--context "$C"`, `--context=$C`).
      const runTime = (value: string): boolean => dynamic.some((i) => argv[i] !== undefined && argv[i]!.endsWith(value));
      this.targetFacts = grammar === undefined ? { production: null, unchecked: false } : commandTargets(grammar, this.read.roles, runTime, this.cmd, ctx!);
    }
    return this.targetFacts;
  }

  get mayAlias(): boolean {
    return !this.opaque && Object.hasOwn(this.grammars, this.program) && this.grammars[this.program]!.inline_aliases !== undefined;
  }

  get read(): ReadArgs {
    if (this.readArgs === undefined) {
      const { argv, dynamic } = this.cmd;
      const first = argv[0] ?? '';
      this.readArgs = readArgv(this.program === first ? argv : [this.program, ...argv.slice(1)], dynamic, this.grammars);
    }
    return this.readArgs;
  }

  get words(): ReadonlySet<string> {
    if (this.wordSet === undefined) {
      const { argv, dynamic } = this.cmd;
      this.wordSet = new Set();
      // A set, not dynamic.includes per word: linear for an argv of thousands of run-time words.
      const dyn = dynamic.length > 0 ? new Set(dynamic) : null;
      for (let i = 1; i < argv.length; i++) if (dyn === null || !dyn.has(i)) this.wordSet.add(argv[i]!);
    }
    return this.wordSet;
  }

  get scriptFrom(): readonly ScriptFromFacts[] {
    if (this.sources === undefined) {
      const grammars = this.grammars;
      this.sources = (this.cmd.script_from ?? []).map((src) => {
        const program = programName(src.argv[0] ?? '');
        let flags: ReadonlySet<string> | undefined;
        return {
          program,
          how: src.how,
          get flags(): ReadonlySet<string> {
            flags ??= readArgv([program, ...src.argv.slice(1)], src.dynamic, grammars).flags;
            return flags;
          },
        };
      });
    }
    return this.sources;
  }
}

export function commandFacts(
  cmd: ShellCommand,
  grammars: Grammars,
  env: PathEnv | (() => PathEnv) = NO_CONTEXT,
  lineSets: readonly string[] = [],
  targets?: TargetContext,
): CommandFacts {
  return new Facts(cmd, grammars, env, null, lineSets, targets);
}

/** A file-tool call judged like a command that touches the same paths (argv: the tool's name); `input`: its arguments. */
export function toolFacts(name: string, paths: readonly ToolPath[], grammars: Grammars, env: PathEnv | (() => PathEnv), input?: unknown): CommandFacts {
  return new Facts({ argv: [name], dynamic: [], opaque: false, via: [] }, grammars, env, paths, [], undefined, input);
}

/** At most this many characters of a tool call's arguments are read for its written text. */
const MAX_WRITTEN_TEXT = 1 << 20;

/**
 * The strings a file tool's arguments hold, whatever the harness calls them (`content`,
 * `new_string`, `newString`, `file_text`, `edits[].new_string`, a patch's text), except the text
 * an edit replaces (keys starting with `old`): what the call writes, at most MAX_WRITTEN_TEXT.
 */
function writtenStrings(v: unknown, key: string | null, depth: number, out: string[]): void {
  if (depth > 4 || (key !== null && /^old/i.test(key))) return;
  if (typeof v === 'string') {
    const used = out.reduce((n, s) => n + s.length, 0);
    if (used < MAX_WRITTEN_TEXT) out.push(v.slice(0, MAX_WRITTEN_TEXT - used));
    return;
  }
  if (Array.isArray(v)) for (const x of v) writtenStrings(x, null, depth + 1, out);
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) writtenStrings(x, k, depth + 1, out);
}
