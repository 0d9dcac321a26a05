/**
 * What rules can see of one simple command: its argv read with the program's grammar, plus the
 * few program-specific facts the rule format names (git push refspecs, gh api method).
 *
 * Everything beyond the program name is computed on first use: most commands of a line (`ls`,
 * `npm`, `grep`) meet no rule that looks past the program, and reading their argv with a
 * grammar was a third of an evaluation's time and most of its garbage (docs/performance.md).
 */
import { readArgv } from '../grammars/reader.ts';
import type { Grammars, ReadArgs } from '../grammars/types.ts';
import type { ScriptSource, ShellCommand } from '../shell/types.ts';

export interface CommandFacts {
  readonly cmd: ShellCommand;
  /** The name rules compare with (see programName); argv[0] as written when opaque. */
  readonly program: string;
  readonly opaque: boolean;
  /** Whether the program's grammar resolves inline aliases (`git -c alias.x=…`). */
  readonly mayAlias: boolean;
  readonly read: ReadArgs;
  /** Literal argument words: argv[1..] without run-time words. */
  readonly words: ReadonlySet<string>;
  readonly refspecForce: boolean;
  readonly refspecDelete: boolean;
  readonly ghApiDelete: boolean;
  /** The producers of the script this command stands for (ShellCommand.script_from), read. */
  readonly scriptFrom: readonly ScriptFromFacts[];
}

export interface ScriptFromFacts {
  /** programName of the producer. */
  program: string;
  how: ScriptSource['how'];
  /** Its options, read with its grammar (computed on first use). */
  readonly flags: ReadonlySet<string>;
}

/**
 * The program name rules compare with: lower case, without `.exe` (`GIT` runs git on a
 * case-insensitive file system, `git.exe` on Windows).
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
  private refspecs: { force: boolean; del: boolean } | undefined;
  private sources: ScriptFromFacts[] | undefined;

  constructor(
    readonly cmd: ShellCommand,
    private readonly grammars: Grammars,
  ) {
    const first = cmd.argv[0] ?? '';
    this.opaque = cmd.opaque;
    this.program = cmd.opaque ? first : programName(first);
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
      for (let i = 1; i < argv.length; i++) if (!dynamic.includes(i)) this.wordSet.add(argv[i]!);
    }
    return this.wordSet;
  }

  private gitPushRefspecs(): { force: boolean; del: boolean } {
    if (this.refspecs === undefined) {
      let force = false;
      let del = false;
      const read = this.read;
      if (read.program === 'git' && read.subcommand[0] === 'push') {
        // Every positional is checked, the repository too: with --repo all of them are
        // refspecs, and a repository never starts with + or :.
        for (const p of read.positionals) {
          if (p.startsWith('+')) force = true;
          const spec = p.startsWith('+') ? p.slice(1) : p;
          if (spec.length > 1 && spec.startsWith(':')) del = true;
        }
      }
      this.refspecs = { force, del };
    }
    return this.refspecs;
  }

  get refspecForce(): boolean {
    return this.gitPushRefspecs().force;
  }

  get refspecDelete(): boolean {
    return this.gitPushRefspecs().del;
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

  get ghApiDelete(): boolean {
    const read = this.read;
    return (
      read.program === 'gh' &&
      read.subcommand[0] === 'api' &&
      (read.values.get('--method') ?? []).some((m) => m.trim().toUpperCase() === 'DELETE')
    );
  }
}

export function commandFacts(cmd: ShellCommand, grammars: Grammars): CommandFacts {
  return new Facts(cmd, grammars);
}
