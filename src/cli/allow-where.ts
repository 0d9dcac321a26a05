/**
 * Where a blocked command acts, for allow-once (docs/allow-once.md, "Where a grant applies"): a
 * grant made for a project lets a command through only where the command acts in that project.
 * A command acts elsewhere after a `cd` earlier on the line to another project (or to a run-time
 * directory), with `-C DIR`, `--git-dir DIR` or `--work-tree DIR` naming another project (or a
 * run-time value), or on a line that sets `GIT_DIR`, `GIT_WORK_TREE` or `GIT_COMMON_DIR` (their
 * values are not tracked per command, so such a line is never let through by a grant).
 *
 * Loaded only with allow-apply (a deny or an ask before an action).
 */
import path from 'node:path';
import type { PolicyInput } from '../core/contract.ts';
import { analyzeLine } from '../shell/index.ts';
import type { PathWord, ShellCommand } from '../shell/types.ts';
import { projectRoot } from './project.ts';

const DIR_OPTIONS = ['-C', '--git-dir', '--work-tree'];
const GIT_VARS = /\bGIT_(?:DIR|WORK_TREE|COMMON_DIR)\b/;

const sameArgv = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((w, i) => w === b[i]);

/**
 * Whether some blocked command (`argvs`) of the event acts outside `project`. `home`: the home
 * directory (`~`); the event's directory is `input.shell.cwd` (or the context's).
 */
export function actsElsewhere(input: PolicyInput, argvs: readonly string[][], project: string, home: string | undefined): boolean {
  const text = input.shell?.command;
  if (text === undefined) return false;
  if (GIT_VARS.test(text)) return true;
  const cwd = input.shell?.cwd ?? input.context?.cwd;
  if (cwd === undefined || !path.isAbsolute(cwd)) return true;
  let commands: ShellCommand[];
  try {
    commands = analyzeLine(text, {}).commands;
  } catch {
    return true;
  }
  const roots = input.session?.workspace_roots ?? input.context?.project_roots ?? [];
  const other = (dir: string | null): boolean => dir === null || projectRoot(dir, home, roots) !== project;
  for (const cmd of commands) {
    if (!argvs.some((a) => sameArgv(a, cmd.argv))) continue;
    let dir: string | null = cwd;
    if ('cwd' in cmd) {
      dir = cmd.cwd === null || cmd.cwd === undefined ? null : resolveDir(cmd.cwd, cwd, home);
      if (other(dir)) return true;
    }
    for (let i = 1; i < cmd.argv.length; i++) {
      const w = cmd.argv[i]!;
      const eq = w.indexOf('=');
      const name = eq > 0 ? w.slice(0, eq) : w;
      if (!DIR_OPTIONS.includes(name)) continue;
      const valueAt = eq > 0 ? i : i + 1;
      const value = eq > 0 ? w.slice(eq + 1) : cmd.argv[i + 1];
      if (value === undefined) continue;
      const given = resolveDir({ value, dynamic: cmd.dynamic.includes(valueAt) }, dir, home);
      if (other(given)) return true;
    }
  }
  return false;
}

/** A directory word against `base` (`~` and `$HOME` from `home`); null when known only at run time. */
function resolveDir(w: PathWord, base: string | null, home: string | undefined): string | null {
  let v = w.value;
  if (v === '~' || v.startsWith('~/')) {
    if (home === undefined) return null;
    v = `${home}${v.slice(1)}`;
  } else if (w.dynamic) {
    const m = /^\$(?:HOME|\{HOME\})(?=\/|$)/.exec(v);
    if (m === null || home === undefined || v.slice(m[0].length).includes('$')) return null;
    v = `${home}${v.slice(m[0].length)}`;
  }
  if (path.isAbsolute(v)) return path.resolve(v);
  return base === null ? null : path.resolve(base, v);
}
