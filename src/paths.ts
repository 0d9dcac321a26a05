/**
 * The single source of truth for every file-system location Buckler uses.
 * `scripts/setup.sh` mirrors `resolvePaths` in Bash; a parity test keeps the two equal.
 * If either changes, both change together, and docs/paths.md with them.
 *
 * Pure: callers pass the environment, platform and home directory in.
 *
 * Joining is deliberately plain (trailing separators of the base dropped, one separator
 * added, nothing normalised): `path.join` would rewrite `..` and `//`, which Bash cannot
 * mirror without re-implementing it, and the OS resolves those anyway.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Env = Readonly<Record<string, string | undefined>>;

export const HARNESS_SCOPES = {
  cursor: ['user', 'project'],
  'claude-code': ['user', 'project', 'local', 'managed'],
  codex: ['user', 'project'],
  'gemini-cli': ['user', 'project'],
  'copilot-cli': ['user', 'project'],
} as const;
export type InstallableHarness = keyof typeof HARNESS_SCOPES;
/** `managed`: the administrator's settings file, which project and user settings cannot switch off. */
export type Scope = 'user' | 'project' | 'local' | 'managed';

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
  /** Installed signed pack bundles (docs/pack-bundles.md): `<name>.bundle`, `previous/`, `sources/`. */
  bundlesDir: string;
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

/** Variables whose value is a directory; a relative value is ignored (XDG spec rule). */
export const DIRECTORY_VARIABLES = [
  'BUCKLER_DATA_HOME',
  'BUCKLER_CONFIG_HOME',
  'BUCKLER_STATE_HOME',
  'BUCKLER_BIN_DIR',
  'XDG_DATA_HOME',
  'XDG_CONFIG_HOME',
  'XDG_STATE_HOME',
  'LOCALAPPDATA',
  'APPDATA',
] as const;

function set(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** `/x` on POSIX; `C:\x`, `C:/x`, `\x`, `/x`, `\\server\share` on Windows. */
export function isAbsoluteFor(platform: NodeJS.Platform, p: string): boolean {
  if (platform === 'win32') return /^([A-Za-z]:)?[\\/]/.test(p);
  return p.startsWith('/');
}

/** Set, non-empty and absolute: otherwise the variable does not count. */
function dir(ctx: PathContext, name: string): string | undefined {
  const v = set(ctx.env, name);
  return v !== undefined && isAbsoluteFor(ctx.platform, v) ? v : undefined;
}

/** Base without its trailing separators, then one separator per part. Nothing normalised. */
export function joinFor(platform: NodeJS.Platform, base: string, ...parts: string[]): string {
  const win = platform === 'win32';
  // A loop, not a regular expression: compiling one cost each hook about 0.3 ms.
  let end = base.length;
  while (end > 0 && (base[end - 1] === '/' || (win && base[end - 1] === '\\'))) end--;
  return [base.slice(0, end), ...parts].join(win ? '\\' : '/');
}

/**
 * The set variables that were ignored because their value is not an absolute path, so
 * `buckler paths` can say so instead of silently falling back.
 */
export function ignoredVariables(ctx: Pick<PathContext, 'env' | 'platform'>): string[] {
  const names: readonly string[] =
    ctx.platform === 'win32'
      ? DIRECTORY_VARIABLES.filter((n) => !n.startsWith('XDG_'))
      : DIRECTORY_VARIABLES.filter((n) => n !== 'LOCALAPPDATA' && n !== 'APPDATA');
  return names.filter((n) => {
    const v = set(ctx.env, n);
    return v !== undefined && !isAbsoluteFor(ctx.platform, v);
  });
}

/**
 * The home directory as the environment states it (`HOME`; `USERPROFILE` on Windows, as
 * Node's `os.homedir()` reads it there), or undefined: callers then fall back to
 * `os.homedir()`, and `setup.sh` stops with an error.
 */
export function homeFromEnv(env: Env, platform: NodeJS.Platform): string | undefined {
  return set(env, platform === 'win32' ? 'USERPROFILE' : 'HOME');
}

export function resolvePaths(ctx: PathContext): Paths {
  const { home, platform } = ctx;
  const win = platform === 'win32';
  const j = (base: string, ...parts: string[]): string => joinFor(platform, base, ...parts);
  let dataHome: string;
  let configHome: string;
  let stateHome: string;
  if (win) {
    const local = dir(ctx, 'LOCALAPPDATA') ?? j(home, 'AppData', 'Local');
    const roaming = dir(ctx, 'APPDATA') ?? j(home, 'AppData', 'Roaming');
    dataHome = dir(ctx, 'BUCKLER_DATA_HOME') ?? j(local, 'Buckler');
    configHome = dir(ctx, 'BUCKLER_CONFIG_HOME') ?? j(roaming, 'Buckler');
    stateHome = dir(ctx, 'BUCKLER_STATE_HOME') ?? j(local, 'Buckler', 'state');
  } else {
    dataHome = dir(ctx, 'BUCKLER_DATA_HOME') ?? j(dir(ctx, 'XDG_DATA_HOME') ?? j(home, '.local', 'share'), 'buckler');
    configHome = dir(ctx, 'BUCKLER_CONFIG_HOME') ?? j(dir(ctx, 'XDG_CONFIG_HOME') ?? j(home, '.config'), 'buckler');
    stateHome = dir(ctx, 'BUCKLER_STATE_HOME') ?? j(dir(ctx, 'XDG_STATE_HOME') ?? j(home, '.local', 'state'), 'buckler');
  }
  const binDir = dir(ctx, 'BUCKLER_BIN_DIR') ?? (win ? j(dataHome, 'bin') : j(home, '.local', 'bin'));
  return {
    dataHome,
    configHome,
    stateHome,
    configFile: j(configHome, 'config.toml'),
    rulesDir: j(configHome, 'rules.d'),
    auditLog: j(stateHome, 'audit.jsonl'),
    cacheDir: j(stateHome, 'cache'),
    versionsDir: j(dataHome, 'versions'),
    bundlesDir: j(dataHome, 'bundles'),
    current: j(dataHome, 'current'),
    binDir,
    launcher: j(binDir, win ? 'buckler.cmd' : 'buckler'),
    home,
  };
}

/**
 * The harness config file Buckler edits for one harness and scope. `project` is the project
 * root for the `project` and `local` scopes. Each harness's own home variable is honoured as
 * the harness takes it (see harnessHomeDir).
 */
export function harnessConfigFile(
  harness: InstallableHarness,
  scope: Scope,
  ctx: PathContext & { project: string },
): string {
  const j = (base: string, ...parts: string[]): string => joinFor(ctx.platform, base, ...parts);
  const user = scope === 'user';
  switch (harness) {
    case 'cursor':
      if (user) return j(ctx.home, '.cursor', 'hooks.json');
      if (scope === 'project') return j(ctx.project, '.cursor', 'hooks.json');
      break;
    case 'claude-code':
      if (user) return j(harnessHomeDir('claude-code', ctx), 'settings.json');
      if (scope === 'project') return j(ctx.project, '.claude', 'settings.json');
      if (scope === 'local') return j(ctx.project, '.claude', 'settings.local.json');
      if (scope === 'managed') return harnessManagedFile('claude-code', ctx) as string;
      break;
    case 'codex':
      if (user) return j(harnessHomeDir('codex', ctx), 'hooks.json');
      if (scope === 'project') return j(ctx.project, '.codex', 'hooks.json');
      break;
    case 'gemini-cli':
      if (user) return j(harnessHomeDir('gemini-cli', ctx), 'settings.json');
      if (scope === 'project') return j(ctx.project, '.gemini', 'settings.json');
      break;
    case 'copilot-cli':
      if (user) return j(harnessHomeDir('copilot-cli', ctx), 'settings.json');
      if (scope === 'project') return j(ctx.project, '.github', 'copilot', 'settings.json');
      break;
  }
  throw new Error(`${harness} has no ${scope} scope`);
}

/**
 * The administrator's managed settings file of a harness, or null when it has none. Read by
 * `buckler doctor` only. `BUCKLER_MANAGED_ROOT` (absolute) is prefixed to the system path, so
 * tests never touch the real /etc; an agent does not control the harness's environment.
 * Claude Code 2.1.332 reads `managed-settings.json` in /etc/claude-code (Linux),
 * /Library/Application Support/ClaudeCode (macOS) and C:\Program Files\ClaudeCode (Windows).
 */
export function harnessManagedFile(harness: InstallableHarness, ctx: Pick<PathContext, 'env' | 'platform'>): string | null {
  if (harness !== 'claude-code') return null;
  const base =
    ctx.platform === 'darwin'
      ? '/Library/Application Support/ClaudeCode'
      : ctx.platform === 'win32'
        ? 'C:\\Program Files\\ClaudeCode'
        : '/etc/claude-code';
  const file = joinFor(ctx.platform, base, 'managed-settings.json');
  const root = dir(ctx as PathContext, 'BUCKLER_MANAGED_ROOT');
  return root === undefined ? file : joinFor(ctx.platform, root, file.replace(/^([A-Za-z]:)?[\\/]/, ''));
}

/**
 * The directory whose existence means "this harness is installed for this user". Each
 * harness's own variable is taken as the harness takes it (any non-empty value):
 * CLAUDE_CONFIG_DIR (Claude Code), CODEX_HOME (Codex), GEMINI_CLI_HOME (Gemini CLI: it replaces
 * the home directory, so the folder is `$GEMINI_CLI_HOME/.gemini`), COPILOT_HOME (Copilot CLI).
 */
export function harnessHomeDir(harness: InstallableHarness, ctx: PathContext): string {
  const j = (base: string, ...parts: string[]): string => joinFor(ctx.platform, base, ...parts);
  switch (harness) {
    case 'cursor':
      return j(ctx.home, '.cursor');
    case 'claude-code':
      return set(ctx.env, 'CLAUDE_CONFIG_DIR') ?? j(ctx.home, '.claude');
    case 'codex':
      return set(ctx.env, 'CODEX_HOME') ?? j(ctx.home, '.codex');
    case 'gemini-cli':
      return j(set(ctx.env, 'GEMINI_CLI_HOME') ?? ctx.home, '.gemini');
    case 'copilot-cli':
      return set(ctx.env, 'COPILOT_HOME') ?? j(ctx.home, '.copilot');
  }
}

/**
 * The installed package's root (holds `packs/`, `dist/`, `package.json`). Works from the
 * TypeScript source (src/paths.ts) and from the bundle (dist/buckler.cjs): both sit one
 * directory below the root.
 */
export function packageRoot(): string {
  return path.dirname(path.dirname(codeFile()));
}

/**
 * The file this code runs from: the bundle (dist/buckler.cjs) when installed, src/paths.ts
 * under the test runner. Its stat keys the compiled-pack cache to the code that compiled it.
 */
export function codeFile(): string {
  return typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
}

/**
 * The file whose stat keys the compiled-pack cache to the code that compiles packs: the hook
 * bundle `dist/main.cjs` when installed (every command bundle is built from the same source at
 * the same time, so `buckler check` and the hook share one cache entry), this file under the
 * test runner.
 */
export function compilerStampFile(): string {
  const file = codeFile();
  return file.endsWith('.cjs') ? path.join(path.dirname(file), 'main.cjs') : file;
}

/** Builtin packs shipped inside the package. */
export function builtinPacksDir(): string {
  return path.join(packageRoot(), 'packs');
}

/** The one bundle every hook runs (`dist/buckler.cjs` inside the package root). */
export function bundleFile(root: string = packageRoot()): string {
  return path.join(root, 'dist', 'buckler.cjs');
}
