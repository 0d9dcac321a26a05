/**
 * The project an action happens in, for allow-once entries, project rules and the audit log:
 * the harness's workspace root that holds the working directory; else the nearest directory at
 * or above it holding `.git` or `.buckler`; else the working directory itself. Never the home
 * directory or `/` (a repository there would make every directory one project). A few stats.
 */
import fs from 'node:fs';
import path from 'node:path';
import { POLICY_IO_VERSION, type PolicyInput } from '../core/contract.ts';
import { actionContext } from './action-context.ts';

const MARKERS = ['.git', '.buckler'];
/** Directories walked up at most. */
const MAX_DEPTH = 40;

function within(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function projectRoot(cwd: string, home: string | undefined, workspaceRoots: readonly string[] = []): string {
  const start = path.resolve(cwd);
  for (const r of workspaceRoots) {
    if (r !== '' && path.isAbsolute(r) && within(start, path.resolve(r))) return path.resolve(r);
  }
  const stop = home === undefined ? undefined : path.resolve(home);
  let dir = start;
  for (let i = 0; i < MAX_DEPTH; i++) {
    if (dir === stop || path.dirname(dir) === dir) break;
    for (const m of MARKERS) if (fs.existsSync(path.join(dir, m))) return dir;
    dir = path.dirname(dir);
  }
  return start;
}

/**
 * The project whose `.buckler/rules.d` loads for an action (docs/project-rules.md): the project
 * root from the action context (the harness's workspace root holding the working directory, else
 * the git top-level, else the working directory; action-context.ts), unless it is `/`, the home
 * directory or above it. No file is touched: the context was built already.
 */
export function rulesProject(ctx: { cwd?: string; home?: string; project_roots?: string[] } | undefined): string | undefined {
  const cwd = ctx?.cwd;
  if (cwd === undefined || !path.isAbsolute(cwd)) return undefined;
  const root = (ctx?.project_roots ?? []).find((r) => path.isAbsolute(r) && within(cwd, r));
  if (root === undefined || path.dirname(root) === root) return undefined;
  const home = ctx?.home;
  if (home !== undefined && path.isAbsolute(home) && within(path.resolve(home), path.resolve(root))) return undefined;
  return path.resolve(root);
}

/** The rules project of a directory, as a hook with that working directory would find it. */
export function projectOf(dir: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const input = { policy_io_version: POLICY_IO_VERSION, trigger: 'pre_shell_exec', shell: { command: '', cwd: dir } } as unknown as PolicyInput;
  return rulesProject(actionContext(input, { env, cwd: dir }));
}
