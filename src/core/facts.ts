/**
 * What rules can see of one simple command: its argv read with the program's grammar, plus the
 * few program-specific facts the rule format names (git push refspecs, gh api method).
 */
import { readArgv } from '../grammars/reader.ts';
import type { Grammars, ReadArgs } from '../grammars/types.ts';
import type { ShellCommand } from '../shell/types.ts';

export interface CommandFacts {
  cmd: ShellCommand;
  read: ReadArgs;
  opaque: boolean;
  /** Literal argument words: argv[1..] without run-time words (computed on first use). */
  readonly words: ReadonlySet<string>;
  refspecForce: boolean;
  refspecDelete: boolean;
  ghApiDelete: boolean;
}

/**
 * The program name rules compare with: lower case, without `.exe` (`GIT` runs git on a
 * case-insensitive file system, `git.exe` on Windows).
 */
export function programName(word: string): string {
  const lower = word.toLowerCase();
  return lower.endsWith('.exe') ? lower.slice(0, -4) : lower;
}

export function commandFacts(cmd: ShellCommand, grammars: Grammars): CommandFacts {
  const first = cmd.argv[0] ?? '';
  const program = cmd.opaque ? first : programName(first);
  const read = readArgv(program === first ? cmd.argv : [program, ...cmd.argv.slice(1)], cmd.dynamic, grammars);
  let refspecForce = false;
  let refspecDelete = false;
  if (read.program === 'git' && read.subcommand[0] === 'push') {
    // Every positional is checked, the repository too: with --repo all of them are refspecs,
    // and a repository never starts with + or :.
    for (const p of read.positionals) {
      if (p.startsWith('+')) refspecForce = true;
      const spec = p.startsWith('+') ? p.slice(1) : p;
      if (spec.length > 1 && spec.startsWith(':')) refspecDelete = true;
    }
  }
  const ghApiDelete =
    read.program === 'gh' &&
    read.subcommand[0] === 'api' &&
    (read.values.get('--method') ?? []).some((m) => m.trim().toUpperCase() === 'DELETE');
  let words: Set<string> | undefined;
  return {
    cmd,
    read,
    opaque: cmd.opaque,
    get words(): ReadonlySet<string> {
      if (!words) {
        words = new Set();
        for (let i = 1; i < cmd.argv.length; i++) if (!cmd.dynamic.includes(i)) words.add(cmd.argv[i]!);
      }
      return words;
    },
    refspecForce,
    refspecDelete,
    ghApiDelete,
  };
}
