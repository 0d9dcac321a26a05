/**
 * Keeping tests out of the developer's real home (used by vitest.config.ts and
 * test-home.setup.testing.ts).
 *
 * - sandboxEnv(root): HOME, every directory variable src/paths.ts reads (DIRECTORY_VARIABLES:
 *   BUCKLER_*_HOME, BUCKLER_BIN_DIR, XDG_*, APPDATA, LOCALAPPDATA), USERPROFILE and each
 *   harness's own directory variable, and BUCKLER_MANAGED_ROOT (system-wide files), all inside `root`. Every test process gets it, and so does
 *   every command a test spawns with the inherited environment.
 * - guardedPaths/snapshot/changes: what Buckler could write in the real home (its data, config
 *   and state homes, its launcher, each harness's user config and administrator's managed
 *   settings file, and any `*buckler*` file beside them), recorded before the run and compared after it: a test that wrote there fails the run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DIRECTORY_VARIABLES, HARNESS_SCOPES, harnessConfigFile, harnessManagedFile, resolvePaths, type InstallableHarness, type PathContext } from './paths.ts';

/** Harness variables that move a harness's user directory (paths.ts harnessHomeDir). */
export const HARNESS_VARIABLES: Readonly<Record<string, string>> = {
  CLAUDE_CONFIG_DIR: '.claude',
  CODEX_HOME: '.codex',
  // Gemini CLI's variable replaces the home directory itself (`$GEMINI_CLI_HOME/.gemini`).
  GEMINI_CLI_HOME: '.',
  COPILOT_HOME: '.copilot',
};

/** Variables that move system-wide files Buckler edits (paths.ts harnessManagedFile) into a root. */
export const ROOT_VARIABLES: readonly string[] = ['BUCKLER_MANAGED_ROOT'];

/** The environment every test runs with: all of Buckler's locations inside `root`. */
export function sandboxEnv(root: string): Record<string, string> {
  const home = path.join(root, 'home');
  const env: Record<string, string> = {
    HOME: home,
    USERPROFILE: home,
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  for (const name of DIRECTORY_VARIABLES) env[name] = path.join(root, 'vars', name);
  for (const [name, dir] of Object.entries(HARNESS_VARIABLES)) env[name] = path.join(home, dir);
  for (const name of ROOT_VARIABLES) env[name] = path.join(root, 'system');
  return env;
}

/** Creates the sandbox's directories (the home and each variable's). */
export function createSandbox(root: string): Record<string, string> {
  const env = sandboxEnv(root);
  for (const dir of new Set(Object.values(env))) fs.mkdirSync(dir, { recursive: true });
  return env;
}

/** A path to watch: a whole tree, or only the entries of a directory whose name matches. */
export type Watch = { tree: string } | { dir: string; names: RegExp };

/** Everything Buckler could write for the person whose environment is `ctx`. */
export function guardedPaths(ctx: PathContext): Watch[] {
  const p = resolvePaths(ctx);
  const watch: Watch[] = [{ tree: p.dataHome }, { tree: p.configHome }, { tree: p.stateHome }, { tree: p.launcher }];
  for (const harness of Object.keys(HARNESS_SCOPES) as InstallableHarness[]) {
    const file = harnessConfigFile(harness, 'user', { ...ctx, project: ctx.home });
    const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    watch.push({ dir: path.dirname(file), names: new RegExp(`^(${base}$|.*buckler)`) });
    const managed = harnessManagedFile(harness, ctx);
    if (managed !== null) watch.push({ dir: path.dirname(managed), names: /^(managed-settings\.json$|.*buckler)/ });
  }
  return watch;
}

function describeEntry(st: fs.Stats): string {
  const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  return kind === 'dir' ? 'dir' : `${kind} ${st.size} bytes, ino ${st.ino}, mtime ${st.mtimeMs}`;
}

/** What is at each watched path now: path -> description (bounded to `limit` entries per watch). */
export function snapshot(watch: readonly Watch[], limit = 20_000): Map<string, string> {
  const out = new Map<string, string>();
  const record = (p: string, depth: number, budget: { n: number }): void => {
    if (budget.n-- <= 0) return;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return;
    }
    out.set(p, describeEntry(st));
    if (st.isDirectory() && depth < 32) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(p);
      } catch {
        /* unreadable: its own entry is recorded */
      }
      for (const n of names.sort()) record(path.join(p, n), depth + 1, budget);
    }
  };
  for (const w of watch) {
    const budget = { n: limit };
    if ('tree' in w) {
      record(w.tree, 0, budget);
      continue;
    }
    let names: string[] = [];
    try {
      names = fs.readdirSync(w.dir);
    } catch {
      continue;
    }
    for (const n of names.filter((x) => w.names.test(x)).sort()) record(path.join(w.dir, n), 1, budget);
  }
  return out;
}

/** The differences between two snapshots, for people. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, was] of before) {
    const now = after.get(p);
    if (now === undefined) out.push(`removed ${p} (was ${was})`);
    else if (now !== was) out.push(`changed ${p}: ${was} -> ${now}`);
  }
  for (const [p, now] of after) if (!before.has(p)) out.push(`created ${p} (${now})`);
  return out;
}

/**
 * The sandbox's variables as this test process has them, for code under test that is handed an
 * environment of its own (an `io.env`) instead of reading process.env.
 */
export function testEnv(): Record<string, string> {
  const root = process.env.BUCKLER_TEST_SANDBOX;
  if (root === undefined || root === '') throw new Error('not running in the test sandbox (vitest.config.ts)');
  return sandboxEnv(root);
}
