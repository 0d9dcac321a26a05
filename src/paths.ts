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
import { HARNESSES, HARNESS_LIST, scopesOf, type SystemSettings, type HarnessFile, type HarnessHome, type HarnessName, type Scope, type ScopeFile } from './harnesses/index.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** The scopes each harness can be wired in, from its record (src/harnesses/). */
export const HARNESS_SCOPES: Readonly<Record<InstallableHarness, readonly Scope[]>> = Object.fromEntries(
  HARNESS_LIST.map((name) => [name, scopesOf(name)]),
) as Record<InstallableHarness, readonly Scope[]>;
export type InstallableHarness = HarnessName;
export type { Scope };

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
  // Concatenated, not `[base, ...parts].join(sep)`: that array and the join cost about 0.4 KB a
  // call, and the hook joins some 70 paths for its named locations (docs/performance.md).
  const sep = win ? '\\' : '/';
  let out = base.slice(0, end);
  for (let i = 0; i < parts.length; i++) out += sep + parts[i];
  return out;
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
  const file = (HARNESSES[harness].scopes as Partial<Record<Scope, ScopeFile>>)[scope];
  if (file === undefined) throw new Error(`${harness} has no ${scope} scope`);
  switch (file.base) {
    case 'harness_home':
      return joinFor(ctx.platform, harnessHomeDir(harness, ctx), ...file.path);
    case 'project':
      return joinFor(ctx.platform, ctx.project, ...file.path);
    case 'system':
      return harnessManagedFile(harness, ctx) as string;
  }
}

/**
 * The administrator's managed settings file of a harness (the file of its `managed` scope), or
 * null when it has no such scope. Read by `buckler doctor`. `BUCKLER_MANAGED_ROOT` (absolute) is
 * prefixed to the system path, so tests never touch the real /etc; an agent does not control the
 * harness's environment. The file itself is in the harness's record (`system`).
 */
export function harnessManagedFile(harness: InstallableHarness, ctx: Pick<PathContext, 'env' | 'platform'>): string | null {
  if (!('managed' in HARNESSES[harness].scopes)) return null;
  return harnessSystemFile(harness, ctx);
}

/**
 * The harness's system-level settings file on this platform (its record's `system`), or null
 * when it reads none here; `BUCKLER_MANAGED_ROOT` (absolute) is prefixed as for
 * harnessManagedFile.
 */
export function harnessSystemFile(harness: InstallableHarness, ctx: Pick<PathContext, 'env' | 'platform'>): string | null {
  const system = HARNESSES[harness].system as { files: Partial<Record<string, string>> } | null;
  // `linux` names the file of every POSIX platform but macOS, as the harnesses' own code does.
  const file = system?.files[ctx.platform] ?? (ctx.platform === 'darwin' || ctx.platform === 'win32' ? undefined : system?.files.linux);
  if (file === undefined) return null;
  const root = dir(ctx as PathContext, 'BUCKLER_MANAGED_ROOT');
  return root === undefined ? file : joinFor(ctx.platform, root, file.replace(/^([A-Za-z]:)?[\\/]/, ''));
}

/**
 * The directory whose existence means "this harness is installed for this user", from the
 * harness's record (`home`): its folder below the home directory, unless the harness's own
 * variable (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME, QWEN_HOME,
 * XDG_CONFIG_HOME for OpenCode) moves it. Each variable is taken as the harness takes it: any
 * non-empty value, or only an absolute one where the record says so.
 */
export function harnessHomeDir(harness: InstallableHarness, ctx: PathContext): string {
  const { path: parts, variable } = HARNESSES[harness].home as HarnessHome;
  const value = variable === undefined ? undefined : variable.absoluteOnly ? dir(ctx, variable.name) : set(ctx.env, variable.name);
  if (value === undefined) return joinFor(ctx.platform, ctx.home, ...parts);
  switch (variable!.is) {
    case 'folder':
      return value;
    case 'home':
      return joinFor(ctx.platform, value, ...parts);
    case 'parent':
      return joinFor(ctx.platform, value, ...parts.slice(-1));
  }
}

/**
 * Where one of a harness's protected files (its record's `files`) lies for this user, as a
 * path pattern: absolute, or relative for a project file (matched in any project). Null for a
 * file of another platform or a managed file the harness does not have.
 */
export function harnessFileLocation(harness: InstallableHarness, f: HarnessFile, ctx: PathContext, home?: () => string): string | null {
  switch (f.base) {
    case 'home':
      return joinFor(ctx.platform, ctx.home, f.path);
    case 'harness_home':
      return joinFor(ctx.platform, home === undefined ? harnessHomeDir(harness, ctx) : home(), f.path);
    case 'project':
      return f.path;
    case 'managed':
      return harnessManagedFile(harness, ctx);
    case 'system':
      return f.platform === ctx.platform ? f.path : null;
  }
}

/** Every harness's protected files of one kind for this user, each once, in record order. */
export function harnessFileLocations(kind: 'settings' | 'credentials' | 'trust', ctx: PathContext, homes: Partial<Record<InstallableHarness, string>> = {}): string[] {
  const out: string[] = [];
  for (const name of HARNESS_LIST) {
    // The harness's home directory, worked out once (most of its files are in it), on first need.
    const home = (): string => (homes[name] ??= harnessHomeDir(name, ctx));
    for (const f of HARNESSES[name].files[kind] as readonly HarnessFile[]) {
      const p = harnessFileLocation(name, f, ctx, home);
      if (p !== null && !out.includes(p)) out.push(p);
    }
  }
  return out;
}

/**
 * Named locations for the action context (`context.locations`, docs/packs.md "Named
 * locations"): where Buckler's own directories and each harness's settings, credentials and
 * trust stores are for this user. Packs are data and cannot know them; the pure core matches them
 * by name (`paths: { location: [harness_settings] }`). The harness files come from each
 * harness's record (src/harnesses/), so a harness added there is protected by the packs that name
 * these locations.
 *
 * Each entry is a path pattern in the syntax of a rule's `glob`: absolute, or a relative pattern
 * matched anywhere (a project-level file such as `.claude/settings.json`, in any project). A
 * directory is given as itself and `DIR/**` (what is inside it).
 */
export type LocationName = 'buckler_config' | 'buckler_state' | 'buckler_data' | 'harness_settings' | 'harness_credentials' | 'harness_trust';

export function namedLocations(ctx: PathContext): Record<LocationName, string[]> {
  const p = resolvePaths(ctx);
  const dirOf = (d: string): string[] => [d, joinFor(ctx.platform, d, '**')];
  // Each harness's home directory, shared by the three kinds of files.
  const homes: Partial<Record<InstallableHarness, string>> = {};
  return {
    buckler_config: dirOf(p.configHome),
    buckler_state: dirOf(p.stateHome),
    // The installed copy: versions, the `current` pointer, signed pack bundles, and the launcher.
    buckler_data: [...dirOf(p.dataHome), p.launcher],
    harness_settings: harnessFileLocations('settings', ctx, homes),
    harness_credentials: harnessFileLocations('credentials', ctx, homes),
    harness_trust: harnessFileLocations('trust', ctx, homes),
  };
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

// ------------------------------------------------------------------------------------------
// System mode: the locked-down install (docs/install.md "Locked-down install"). MIRRORED by
// scripts/setup.sh `bk_system_paths`; src/paths.parity.test.ts compares them.
//
// The locations are fixed, not variables: in this mode nothing the person's processes set may
// move the policy. The mode is on when the code that runs lives under SYSTEM_DIRS.code, which
// only root can write. Tests run the real paths inside a private mount namespace
// (src/system-install.e2e.test.ts), never with a prefix variable.
// ------------------------------------------------------------------------------------------

/** Where the locked-down install keeps code, policy and approvals (POSIX only). */
export const SYSTEM_DIRS = Object.freeze({ code: '/opt/buckler', config: '/etc/buckler', state: '/var/lib/buckler' });

/** True when `file` (the running code) is part of a locked-down install: under /opt/buckler/. */
export function isSystemCodeFile(file: string, platform: NodeJS.Platform): boolean {
  return platform !== 'win32' && file.startsWith(`${SYSTEM_DIRS.code}/`);
}

/**
 * What the system config (/etc/buckler/config.toml `[system]`) lets the person's environment set
 * in the locked-down install: the operator bypass (`allow_bypass`), and the location variables
 * that move the person's own config.toml, rules.d and audit log (`allow_location_variables`).
 */
export interface SystemAllows {
  bypass?: boolean;
  locationVariables?: boolean;
}

/** The operator bypass variables (src/core/policy.ts BYPASS_VARS; paths.ts may not import the core). */
const SYSTEM_BYPASS_VARIABLES: readonly string[] = ['BUCKLER_BYPASS', 'RETHUNK_ALLOW_SHELL'];

/**
 * The location variables `allow_location_variables` lets count in the locked-down install: Buckler's
 * own directory variables and every `XDG_*`. They only ever move the person's layers (which can
 * only tighten) and audit log: the system's locations stay fixed. `BUCKLER_MANAGED_ROOT` (where the
 * harnesses' system settings are) is never read in this mode.
 */
export function isSystemLocationVariable(name: string): boolean {
  return name.startsWith('XDG_') || name === 'BUCKLER_DATA_HOME' || name === 'BUCKLER_CONFIG_HOME' || name === 'BUCKLER_STATE_HOME' || name === 'BUCKLER_BIN_DIR';
}

/**
 * The environment as the locked-down install reads it: every `BUCKLER_*` and `XDG_*` variable
 * and the operator bypass (`RETHUNK_ALLOW_SHELL` included) removed, so neither the locations
 * nor the bypass can be set by whoever starts the harness; except what the system config
 * `allows` (the bypass; the location variables, isSystemLocationVariable).
 */
export function systemEnv(env: Env, allows: SystemAllows = {}): Env {
  const out: Record<string, string | undefined> = {};
  for (const k of Object.keys(env)) {
    if (SYSTEM_BYPASS_VARIABLES.includes(k)) {
      if (allows.bypass !== true) continue;
    } else if (k.startsWith('BUCKLER_') || k.startsWith('XDG_')) {
      if (allows.locationVariables !== true || !isSystemLocationVariable(k)) continue;
    }
    out[k] = env[k];
  }
  return out;
}

/** The variables systemEnv(env) removes (with no allowance): what the hook keeps aside until the system config is read. */
export function systemWithheld(env: Env): Env {
  const kept = systemEnv(env);
  const out: Record<string, string | undefined> = {};
  for (const k of Object.keys(env)) if (!Object.hasOwn(kept, k)) out[k] = env[k];
  return out;
}

/**
 * The person's own locations (their config.toml and rules.d, which can only tighten the
 * system's policy, and their audit log), from the home directory alone: no location variable,
 * unless `variables` (the environment was filtered by systemEnv, and the system config allowed
 * the location variables that are left in it).
 */
export function personPaths(ctx: PathContext, variables = false): Paths {
  if (!variables) return resolvePaths({ ...ctx, env: {} });
  const env: Record<string, string | undefined> = {};
  for (const k of Object.keys(ctx.env)) if (isSystemLocationVariable(k)) env[k] = ctx.env[k];
  return resolvePaths({ ...ctx, env });
}

/**
 * The locked-down install's locations for the person with user id `uid`: code and the
 * compiled-pack cache under /opt/buckler, config, rules.d and bundles under /etc/buckler,
 * approvals (allow-once, trust) in /var/lib/buckler/<uid>; only the audit log is the person's.
 */
export function resolveSystemPaths(ctx: PathContext, uid: number, personVariables = false): Paths {
  const j = (base: string, ...parts: string[]): string => joinFor('linux', base, ...parts);
  const { code, config, state } = SYSTEM_DIRS;
  return {
    dataHome: code,
    configHome: config,
    stateHome: j(state, String(uid)),
    configFile: j(config, 'config.toml'),
    rulesDir: j(config, 'rules.d'),
    auditLog: personPaths(ctx, personVariables).auditLog,
    cacheDir: j(code, 'cache'),
    versionsDir: j(code, 'versions'),
    bundlesDir: j(config, 'bundles'),
    current: j(code, 'current'),
    binDir: j(code, 'bin'),
    launcher: j(code, 'bin', 'buckler'),
    home: ctx.home,
  };
}

/**
 * The system-level settings file where the locked-down install wires a harness, or null when
 * the harness has none Buckler can rely on (then this mode does not protect it). Linux paths;
 * the harnesses' shipped code names them (docs/adapters/<name>.md). Each file has the shape of
 * the harness's user settings file, so the same merge writes it.
 * - claude-code: managed settings, which outrank project and user settings (disableAllHooks).
 * - gemini-cli, qwen-code: system settings, merged last (they win over user and workspace).
 * - factory-droid: /etc/factory/settings.json (read by the shipped binary; precedence not verified).
 * - cursor: enterprise hooks (documented).
 * The files and whether this mode writes them come from the harness records
 * (src/harnesses/<name>.ts `system.files.linux`, `system.lockedDown`).
 * Not wired: codex (managed hooks' shape in requirements.toml unverified), opencode (managed
 * config's plugin loading unverified), copilot-cli (no system file found).
 */
export const SYSTEM_SETTINGS: Readonly<Record<InstallableHarness, string | null>> = Object.freeze(
  Object.fromEntries(
    (Object.keys(HARNESSES) as InstallableHarness[]).map((h) => {
      const system = HARNESSES[h].system as SystemSettings | null;
      return [h, system?.lockedDown === true ? (system.files.linux ?? null) : null];
    }),
  ) as Record<InstallableHarness, string | null>,
);
