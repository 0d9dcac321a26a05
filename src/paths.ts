/**
 * The single source of truth for every file-system location Buckler uses.
 * `scripts/setup.sh` mirrors `resolvePaths` in Bash; a parity test keeps the two equal.
 * If either changes, both change together, and docs/paths.md with them.
 *
 * Pure: callers pass the environment, platform and home directory in.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Env = Readonly<Record<string, string | undefined>>;

export const HARNESS_SCOPES = {
  cursor: ['user', 'project'],
  'claude-code': ['user', 'project', 'local'],
} as const;
export type InstallableHarness = keyof typeof HARNESS_SCOPES;
export type Scope = 'user' | 'project' | 'local';

export interface Paths {
  /** Installed versions and the `current` pointer. */
  dataHome: string;
  /** `config.toml` and `rules.d/`. */
  configHome: string;
  /** Audit log and compiled-pack cache. */
  stateHome: string;
  configFile: string;
  rulesDir: string;
  auditLog: string;
  cacheDir: string;
  versionsDir: string;
  /** Symlink (a pointer file on Windows) to the active `versions/<version>`. */
  current: string;
  /** Where `setup.sh` puts the `buckler` launcher. */
  binDir: string;
  launcher: string;
  home: string;
}

export interface PathContext {
  env: Env;
  platform: NodeJS.Platform;
  home: string;
}

function set(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** XDG base directories count only when absolute (XDG Base Directory spec). */
function xdg(env: Env, name: string): string | undefined {
  const v = set(env, name);
  return v !== undefined && v.startsWith('/') ? v : undefined;
}

export function resolvePaths(ctx: PathContext): Paths {
  const { env, home } = ctx;
  const win = ctx.platform === 'win32';
  const p = win ? path.win32 : path.posix;
  let dataHome: string;
  let configHome: string;
  let stateHome: string;
  if (win) {
    const local = set(env, 'LOCALAPPDATA') ?? p.join(home, 'AppData', 'Local');
    const roaming = set(env, 'APPDATA') ?? p.join(home, 'AppData', 'Roaming');
    dataHome = set(env, 'BUCKLER_DATA_HOME') ?? p.join(local, 'Buckler');
    configHome = set(env, 'BUCKLER_CONFIG_HOME') ?? p.join(roaming, 'Buckler');
    stateHome = set(env, 'BUCKLER_STATE_HOME') ?? p.join(local, 'Buckler', 'state');
  } else {
    dataHome =
      set(env, 'BUCKLER_DATA_HOME') ??
      p.join(xdg(env, 'XDG_DATA_HOME') ?? p.join(home, '.local', 'share'), 'buckler');
    configHome =
      set(env, 'BUCKLER_CONFIG_HOME') ??
      p.join(xdg(env, 'XDG_CONFIG_HOME') ?? p.join(home, '.config'), 'buckler');
    stateHome =
      set(env, 'BUCKLER_STATE_HOME') ??
      p.join(xdg(env, 'XDG_STATE_HOME') ?? p.join(home, '.local', 'state'), 'buckler');
  }
  const binDir = set(env, 'BUCKLER_BIN_DIR') ?? (win ? p.join(dataHome, 'bin') : p.join(home, '.local', 'bin'));
  return {
    dataHome,
    configHome,
    stateHome,
    configFile: p.join(configHome, 'config.toml'),
    rulesDir: p.join(configHome, 'rules.d'),
    auditLog: p.join(stateHome, 'audit.jsonl'),
    cacheDir: p.join(stateHome, 'cache'),
    versionsDir: p.join(dataHome, 'versions'),
    current: p.join(dataHome, 'current'),
    binDir,
    launcher: p.join(binDir, win ? 'buckler.cmd' : 'buckler'),
    home,
  };
}

/**
 * The harness config file Buckler edits for one harness and scope. `project` is the project
 * root for the `project` and `local` scopes. Claude Code honours CLAUDE_CONFIG_DIR for its
 * user directory.
 */
export function harnessConfigFile(
  harness: InstallableHarness,
  scope: Scope,
  ctx: PathContext & { project: string },
): string {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  if (harness === 'cursor') {
    if (scope === 'user') return p.join(ctx.home, '.cursor', 'hooks.json');
    if (scope === 'project') return p.join(ctx.project, '.cursor', 'hooks.json');
  } else {
    if (scope === 'user') return p.join(set(ctx.env, 'CLAUDE_CONFIG_DIR') ?? p.join(ctx.home, '.claude'), 'settings.json');
    if (scope === 'project') return p.join(ctx.project, '.claude', 'settings.json');
    if (scope === 'local') return p.join(ctx.project, '.claude', 'settings.local.json');
  }
  throw new Error(`${harness} has no ${scope} scope`);
}

/** The directory whose existence means "this harness is installed for this user". */
export function harnessHomeDir(harness: InstallableHarness, ctx: PathContext): string {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  if (harness === 'cursor') return p.join(ctx.home, '.cursor');
  return set(ctx.env, 'CLAUDE_CONFIG_DIR') ?? p.join(ctx.home, '.claude');
}

/**
 * The installed package's root (holds `packs/`, `dist/`, `package.json`). Works from the
 * TypeScript source (src/paths.ts) and from the bundle (dist/buckler.cjs): both sit one
 * directory below the root.
 */
export function packageRoot(): string {
  const file = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  return path.dirname(path.dirname(file));
}

/** Builtin packs shipped inside the package. */
export function builtinPacksDir(): string {
  return path.join(packageRoot(), 'packs');
}
