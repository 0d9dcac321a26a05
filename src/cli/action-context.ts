/**
 * The action context the pure core resolves paths against (PolicyInput `context`,
 * docs/packs.md "Paths"), supplied by the hook driver, `buckler check` and `buckler evaluate`:
 *
 * - `cwd`: the event's (`shell.cwd`, or what the adapter put in `context.cwd`), else the
 *   process's;
 * - `home`: `HOME` of the hook process (the harness's environment, not the agent's);
 * - `project_roots`: the harness's workspace roots (`session.workspace_roots`); else the git
 *   top-level above `cwd` (the nearest directory holding `.git`, found by walking up with
 *   `stat` calls only, bounded; no git process; not the home directory or above it); else `cwd`;
 * - `temp_dirs`: `/tmp`, `/var/tmp` and `$TMPDIR`; `tmpdir`: `$TMPDIR` when set;
 * - `locations`: Buckler's directories and the harnesses' settings, credentials and trust
 *   stores for that home (locations.ts).
 *
 * What the adapter already gave wins, field by field. The core still never takes `/`, the home
 * directory or an ancestor of it as a project root.
 */
import { statSync } from 'node:fs';
import type { ActionContext, PolicyInput } from '../core/contract.ts';
import { normalizeAbsolute } from '../core/path-scope.ts';
import { namedLocations } from './locations.ts';

/** Directories walked up from `cwd` looking for `.git`. */
const MAX_LEVELS = 40;

export interface ContextOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** The process's directory (fallback for `cwd`). */
  cwd: string;
  /** Whether `path` exists (tests pass their own); default: one `stat` call. */
  exists?: (path: string) => boolean;
  /** The platform named locations are resolved for (default: this process's). */
  platform?: NodeJS.Platform;
}

const statExists = (p: string): boolean => statSync(p, { throwIfNoEntry: false }) !== undefined;

/** The nearest directory at or above `dir` that holds `.git` (a directory or a worktree's file). */
export function gitTopLevel(dir: string, exists: (path: string) => boolean = statExists): string | null {
  let d = normalizeAbsolute(dir);
  for (let i = 0; i < MAX_LEVELS; i++) {
    if (exists(d === '/' ? '/.git' : `${d}/.git`)) return d;
    if (d === '/') return null;
    d = d.slice(0, d.lastIndexOf('/')) || '/';
  }
  return null;
}

export function actionContext(input: PolicyInput, opts: ContextOptions): ActionContext {
  const given = input.context ?? {};
  const ctx: ActionContext = { ...given };
  const cwdRaw = given.cwd ?? input.shell?.cwd ?? opts.cwd;
  const cwd = cwdRaw.startsWith('/') ? normalizeAbsolute(cwdRaw) : cwdRaw;
  ctx.cwd = cwd;
  const home = opts.env['HOME'];
  if (ctx.home === undefined && home !== undefined && home.startsWith('/')) ctx.home = home;
  const tmpdir = opts.env['TMPDIR'];
  if (ctx.tmpdir === undefined && tmpdir !== undefined && tmpdir.startsWith('/')) ctx.tmpdir = tmpdir;
  if (ctx.temp_dirs === undefined) ctx.temp_dirs = ctx.tmpdir !== undefined ? ['/tmp', '/var/tmp', ctx.tmpdir] : ['/tmp', '/var/tmp'];
  if (ctx.project_roots === undefined || ctx.project_roots.length === 0) {
    const h = ctx.home === undefined ? undefined : normalizeAbsolute(ctx.home);
    // Without workspace roots, the repository the cwd is in is the project; a `.git` in the
    // home directory or above it (a dotfiles repository) makes no project. Workspace roots are
    // taken as the harness gives them: never widened by a `.git` found above them (an agent can
    // create one, and a wider project would let it delete more).
    const project = (dir: string): string => {
      const top = gitTopLevel(dir, opts.exists);
      const aboveHome = top !== null && h !== undefined && (h === top || h.startsWith(top === '/' ? '/' : `${top}/`));
      return top !== null && !aboveHome ? top : dir;
    };
    const ws = (input.session?.workspace_roots ?? []).filter((r) => r.startsWith('/')).map(normalizeAbsolute);
    if (ws.length > 0) ctx.project_roots = ws;
    else if (cwd.startsWith('/')) ctx.project_roots = [project(cwd)];
  }
  // Buckler's own directories and the harnesses' settings, credentials and trust stores, by name
  // (packs/agent-tamper.yaml, packs/agent-secrets.yaml), for the home directory paths resolve against.
  if (ctx.locations === undefined && ctx.home !== undefined && ctx.home.startsWith('/')) {
    ctx.locations = namedLocations({ env: opts.env, platform: opts.platform ?? process.platform, home: normalizeAbsolute(ctx.home) });
  }
  return ctx;
}
