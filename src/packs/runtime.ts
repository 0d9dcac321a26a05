/**
 * The one place that reads packs and config from disk: `config.toml`, then each pack source in
 * load order (sources.ts: builtin packs, user packs from rules.d, installed signed bundles),
 * compiled into one policy.
 *
 * The compiler itself (YAML, TOML, schema, examples: ./compiler.ts) is imported only when the
 * compiled-pack cache misses; that is why loading is asynchronous.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KnownRule } from '../core/explain.ts';
import type { CompiledPolicy, Tier } from '../core/policy.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { builtinPacksDir, compilerStampFile, type Paths } from '../paths.ts';
import { cacheFileName, cacheFileText, readCacheFile, stampOf, type StampParts } from './cache.ts';
import type { BucklerConfig } from './config.ts';
import type { FileState } from './file-state.ts';
import { bundleSource, directorySource, fileState, readText } from './sources.ts';
import { projectSource, trustStoreFile } from './project-rules.ts';
import type { PackCompiler, PackSourceProvider, ProjectTrustOverride, SourceReport } from './source-contract.ts';
import { mergeSystemOverUser, personRulesSource, systemProjectSource } from './system-layers.ts';
import type { Problem } from './problems.ts';


export type { BucklerConfig } from './config.ts';

export interface RuntimeOptions {
  /** Overrides `[core] tier` of config.toml. */
  tier?: Tier;
  /** Builtin packs directory (default: the packs shipped with Buckler). */
  packsDir?: string;
  /** User packs directory (default: `rules.d` under the config directory). */
  rulesDir?: string;
  /** Installed pack bundles (default: `bundles` under the data directory). */
  bundlesDir?: string;
  /** Config file (default: `config.toml` under the config directory). */
  configFile?: string;
  /**
   * The project root of the action (docs/project-rules.md): its `.buckler/rules.d` loads as the
   * `project` source. Absent: no project rules.
   */
  project?: string;
  /** The trust store for project rules (default: `trust.json` in the state directory). */
  trustFile?: string;
  /**
   * Take the project's rules as trusted or untrusted for this load only, without reading the
   * trust store (`buckler test`). Never cached: a load with it compiles afresh.
   */
  projectTrust?: ProjectTrustOverride;
  /** Run rule examples while compiling (default true). */
  examples?: boolean;
  /**
   * The user the cache must belong to (its directory and file); undefined: not checked (no
   * user ids, as on Windows). The CLI passes its own (`processUid`).
   */
  uid?: number | undefined;
  /**
   * Use the compiled-pack cache in the state directory (default true for `loadRuntimePolicy`).
   * `validate` never uses it: it must report every problem afresh.
   */
  cache?: boolean;
  /**
   * The locked-down install (docs/install.md): the person's own config.toml and rules.d, which
   * can only tighten the system's policy (system-layers.ts). Absent: an ordinary install.
   */
  person?: { configFile: string; rulesDir: string };
  /**
   * The cache is shared, made by root at install time for every person (0755 directory, 0644
   * files) instead of private to one user (0700, 0600).
   */
  shared?: boolean;
}

export interface LoadedPolicy {
  policy: CompiledPolicy;
  config: BucklerConfig;
  /** One line per problem found (file:line rule id: what), for stderr. */
  warnings: string[];
  /**
   * Rules (or whole files) left out of the policy because of an error, one line each
   * (file:line rule id: what). Hooks tell a person through the harness where it can
   * (Adapter.notice); absent: none.
   */
  dropped?: string[];
  /** True when it came from the compiled-pack cache (nothing was compiled). */
  cached?: boolean;
}

export interface PolicyReport extends LoadedPolicy {
  problems: Problem[];
  /** Pack files read, in load order (a bundle counts as one file). */
  files: string[];
  /** Each source in load order: what it loaded (with each pack's origin) and what it refused. */
  sources: SourceReport[];
  /** Rules checked (all packs and tiers). */
  checked: number;
  /** Every good rule in load order, with its state (active, or why it is skipped). */
  known: KnownRule[];
}

/**
 * The policy the hook path uses. Compiled packs are cached in the state directory, keyed by
 * every input and checked by a digest bound to those inputs (see cache.ts), so a warm call
 * stats a handful of files and reads and verifies one JSON file: no YAML or TOML parser is
 * loaded and no rule example runs. A stale, damaged or unreadable cache is rebuilt; a cache
 * that cannot be written is skipped. Neither is ever fatal. A damaged cache, or one reached
 * through a symlink or owned by someone else, is never trusted, and says so in `warnings`.
 */
export function loadRuntimePolicy(paths: Paths, opts: RuntimeOptions = {}): LoadedPolicy | Promise<LoadedPolicy> {
  if (opts.cache === false || opts.projectTrust !== undefined) return compileFromDisk(paths, opts);
  const options = { tier: opts.tier ?? null, examples: opts.examples ?? true };
  // Stamp first, compile second: an edit made while compiling leaves a stamp that no longer
  // matches, so the next call rebuilds instead of trusting content older than the files.
  const inputs = currentInputs(paths, opts, options);
  const stamp = stampOf(inputs.parts);
  const file = path.join(paths.cacheDir, cacheFileName(options, inputs.project));
  const check = checkCacheFile(paths.cacheDir, file, stamp, opts.uid, true);
  // A hit is returned as is, not as a promise: a warm hook then decides without awaiting
  // anything, and arms no deadline timer (src/cli/driver.ts).
  if (check.loaded) return { ...check.loaded, cached: true };
  return compileAndCache(paths, opts, file, stamp, check);
}

/**
 * How long a hook that finds another one compiling waits for its cache before compiling itself.
 * The hook's own deadline (src/cli/hook/deadline.ts) races the wait and ends it sooner.
 */
export const BUILD_WAIT_MS = 20_000;
const BUILD_POLL_MS = 20;

async function compileAndCache(paths: Paths, opts: RuntimeOptions, file: string, stamp: string, check: CacheCheck): Promise<LoadedPolicy> {
  // Many hooks may start at once with no compiled policy (24 on a loaded 2-core machine took
  // 21-24 s, each compiling): one builds it under a lock, the others wait for its cache.
  const built = await builtByAnother(paths, file, stamp, opts.uid);
  if (built.loaded !== undefined) return built.loaded;
  try {
    const loaded = await compileFromDisk(paths, opts);
    writeCache(paths.cacheDir, file, cacheFileText(stamp, loaded), opts.uid, opts.shared === true);
    if (check.state === 'damaged' || check.state === 'unsafe') {
      loaded.warnings = [...loaded.warnings, `the compiled-pack cache ${file} was not used (${check.reason}); compiled afresh`];
    }
    return loaded;
  } finally {
    built.held?.release();
  }
}

/**
 * Takes the build lock beside the cache file; when another live hook holds it, waits (without
 * blocking the event loop, so the hook's deadline can fire) until that hook's cache is there
 * or its lock is gone. `loaded`: the cache the other hook wrote; `held`: the lock to release
 * after compiling (none when it could not be taken: this hook compiles anyway).
 */
async function builtByAnother(paths: Paths, file: string, stamp: string, uid: number | undefined): Promise<{ loaded?: LoadedPolicy; held?: { release(): void } }> {
  if (!safeCacheDir(paths.cacheDir, uid)) return {};
  const { acquireLock, lockFileFor, LockBusyError } = await import('../files/lock.ts');
  const lockFile = lockFileFor(file);
  const started = Date.now();
  for (;;) {
    try {
      return { held: acquireLock(lockFile, { waitMs: 0 }) };
    } catch (e) {
      if (!(e instanceof LockBusyError)) return {};
    }
    // Another hook is compiling: its cache, once written, is this hook's too.
    while (Date.now() - started < BUILD_WAIT_MS) {
      await new Promise((r) => setTimeout(r, BUILD_POLL_MS));
      const c = checkCacheFile(paths.cacheDir, file, stamp, uid);
      if (c.loaded) return { loaded: { ...c.loaded, cached: true } };
      if (!fs.existsSync(lockFile)) break;
    }
    if (Date.now() - started >= BUILD_WAIT_MS) return {};
  }
}

/** What `buckler validate` says about the compiled-pack cache. */
export interface CacheCheck {
  file: string;
  /**
   * fresh: verified, would be used; absent: none yet; stale: intact, for other inputs or code
   * (rebuilt by the next hook); damaged: not what Buckler wrote; unsafe: a symlink, not a
   * regular file or directory, or owned by another user.
   */
  state: 'fresh' | 'absent' | 'stale' | 'damaged' | 'unsafe';
  reason?: string;
}

/** The hook's cache, checked as the hook would check it (reads, never writes). */
export function checkRuntimeCache(paths: Paths, opts: RuntimeOptions = {}): CacheCheck {
  const options = { tier: opts.tier ?? null, examples: opts.examples ?? true };
  const inputs = currentInputs(paths, opts, options);
  const stamp = stampOf(inputs.parts);
  const { loaded: _loaded, ...check } = checkCacheFile(paths.cacheDir, path.join(paths.cacheDir, cacheFileName(options, inputs.project)), stamp, opts.uid);
  return check;
}

/** Why a cache directory must not be used, 'absent', or null when it is a real directory of ours. */
function dirProblem(dir: string, uid: number | undefined): string | null {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir, { throwIfNoEntry: false });
  } catch (e) {
    return `the cache directory cannot be inspected (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  if (st === undefined) return 'absent';
  if (st.isSymbolicLink()) return 'the cache directory is a symbolic link';
  if (!st.isDirectory()) return 'the cache directory is not a directory';
  if (uid !== undefined && st.uid !== uid) return 'the cache directory belongs to another user';
  return null;
}

const { O_RDONLY } = fs.constants;
/** Not on Windows (0 there: no symlink or FIFO tricks to guard against in the same way). */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** `lazy`: the hook's check (sections verified when used, cache.ts); else every byte is verified now. */
function checkCacheFile(dir: string, file: string, stamp: string, uid: number | undefined, lazy = false): CacheCheck & { loaded?: LoadedPolicy } {
  const problem = dirProblem(dir, uid);
  if (problem === 'absent') return { file, state: 'absent' };
  if (problem !== null) return { file, state: 'unsafe', reason: problem };
  let fd: number;
  try {
    // No-follow: a symlink planted at the cache path is refused, not followed to a poisoned
    // copy. Non-blocking: a FIFO planted there must not hang the hook.
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file, state: 'absent' };
    if (code === 'ELOOP') return { file, state: 'unsafe', reason: 'the cache file is a symbolic link' };
    return { file, state: 'unsafe', reason: `the cache file cannot be opened (${code ?? String(e)})` };
  }
  let bytes: Buffer;
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { file, state: 'unsafe', reason: 'the cache file is not a regular file' };
    if (uid !== undefined && st.uid !== uid) return { file, state: 'unsafe', reason: 'the cache file belongs to another user' };
    bytes = fs.readFileSync(fd);
  } catch (e) {
    return { file, state: 'unsafe', reason: `the cache file cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  } finally {
    fs.closeSync(fd);
  }
  // A section found damaged when a hook first uses it: the file is removed (the next load compiles afresh).
  const verdict = readCacheFile(bytes, stamp, lazy ? { lazy, onDamaged: () => removeCache(dir, path.basename(file), []) } : {});
  if (verdict.kind === 'hit') return { file, state: 'fresh', loaded: verdict.loaded };
  return verdict.kind === 'stale' ? { file, state: 'stale' } : { file, state: 'damaged', reason: verdict.reason };
}

async function compileFromDisk(paths: Paths, opts: RuntimeOptions): Promise<LoadedPolicy> {
  const { policy, config, warnings, dropped } = reportFor(paths, opts, await import('./compiler.ts'));
  return dropped ? { policy, config, warnings, dropped } : { policy, config, warnings };
}

function providers(paths: Paths, opts: RuntimeOptions): PackSourceProvider[] {
  const list = [
    directorySource('builtin', opts.packsDir ?? builtinPacksDir()),
    directorySource('user', opts.rulesDir ?? paths.rulesDir),
    bundleSource(opts.bundlesDir ?? paths.bundlesDir),
  ];
  if (opts.person !== undefined) list.push(personRulesSource(opts.person.rulesDir));
  if (opts.project !== undefined) {
    const trustFile = opts.trustFile ?? trustStoreFile(paths.stateHome);
    // The locked-down install: its system config can switch trust off (system-layers.ts).
    list.push(opts.person !== undefined && opts.projectTrust === undefined ? systemProjectSource(opts.project, trustFile) : projectSource(opts.project, trustFile, opts.projectTrust));
  }
  return list;
}

/**
 * Every input's stat. A project without a rules directory adds nothing (one `stat` found it
 * absent), so every such project shares the one cache file; a project with rules has its own.
 */
function currentInputs(paths: Paths, opts: RuntimeOptions, options: StampParts['options']): { parts: StampParts; project?: string } {
  const dirs: StampParts['dirs'] = [];
  let project: string | undefined;
  for (const p of providers(paths, opts)) {
    const l = p.listing();
    if (p.name === 'project') {
      if (l.files === null) continue;
      project = opts.project;
    }
    // The person's rules.d, when absent, adds nothing: the cache made at install time serves.
    if (opts.person !== undefined && l.files === null && l.dir === opts.person.rulesDir) continue;
    dirs.push(l);
  }
  if (opts.person !== undefined) {
    const person = fileState(opts.person.configFile);
    if (person.stat !== null) dirs.push({ dir: opts.person.configFile, files: [person] });
  }
  const parts = { code: fileState(compilerStampFile()), config: fileState(opts.configFile ?? paths.configFile), dirs, options };
  return project === undefined ? { parts } : { parts, project };
}

/**
 * A real directory of ours, 0700, for the cache: a symlink (or a file) at its path is removed
 * (the link itself, never what it points to) and replaced by a new directory. False when it
 * cannot be made safe (another user's directory, a read-only state directory): no cache then.
 */
function safeCacheDir(dir: string, uid: number | undefined, shared = false): boolean {
  const mode = shared ? 0o755 : 0o700;
  try {
    let problem = dirProblem(dir, uid);
    if (problem === 'the cache directory is a symbolic link' || problem === 'the cache directory is not a directory') {
      fs.unlinkSync(dir);
      problem = 'absent';
    }
    if (problem === 'absent') {
      fs.mkdirSync(path.dirname(dir), { recursive: true, mode });
      fs.mkdirSync(dir, { mode });
      problem = dirProblem(dir, uid);
    }
    if (problem !== null) return false;
    const now = fs.statSync(dir).mode & 0o777;
    if (shared ? now !== mode : (now & 0o077) !== 0) fs.chmodSync(dir, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * Atomic, with the one atomic-write helper (files/atomic.ts): a reader sees the old record or
 * the new one, never part of one. Its temporary file is created exclusively (O_EXCL, so never
 * through a link), and the rename replaces whatever is at `file` (a symlink included) by the new
 * file, never writing through it.
 */
function writeCache(dir: string, file: string, text: string, uid: number | undefined, shared: boolean): void {
  if (!safeCacheDir(dir, uid, shared)) return;
  try {
    writeFileAtomic(file, text, { mode: shared ? 0o644 : 0o600 });
  } catch {
    /* no cache this time: the next hook compiles again */
    return;
  }
  pruneProjectCaches(dir, file, uid, Date.now());
}

/**
 * A per-project cache file's name (cache.ts `cacheFileName` with a project), and nothing else:
 * `policy-<tier>[-noexamples]-p<8 lowercase hex>.json`. String checks, no regular expression
 * (this module is on the hook path, docs/performance.md).
 */
export function isProjectCacheName(name: string): boolean {
  if (!name.startsWith('policy-') || !name.endsWith('.json')) return false;
  const stem = name.slice('policy-'.length, -'.json'.length);
  const p = stem.length - 10;
  if (p < 1 || stem.slice(p, p + 2) !== '-p') return false;
  for (let i = p + 2; i < stem.length; i++) {
    const c = stem.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  let tier = stem.slice(0, p);
  if (tier.endsWith('-noexamples')) tier = tier.slice(0, -'-noexamples'.length);
  if (tier === '') return false;
  for (let i = 0; i < tier.length; i++) {
    const c = tier.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}
/** At most this many per-project cache files are kept (the newest, by the time written). */
export const MAX_PROJECT_CACHES = 32;
/** A per-project cache file not written for this long is removed. */
export const PROJECT_CACHE_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/**
 * Bounds the per-project cache files (`policy-<tier>-p<hex>.json`, one per project with rules,
 * which would otherwise accumulate): removes those not written for 30 days, then all but the 32
 * newest. Runs only after a cache file was written (a miss), never on a warm hook. Only names a
 * per-project cache file can have are touched, only regular files (a symbolic link, directory or
 * FIFO of that name is left alone), only the user's own, and `keep` (the file just written)
 * never. Removal is one `unlink` of a name in the cache directory, which never follows a link; a
 * hook reading a removed file has it open or finds it absent and compiles afresh. Never throws.
 */
export function pruneProjectCaches(dir: string, keep: string, uid: number | undefined, now: number): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  const mine = path.basename(keep);
  const live: { name: string; mtimeMs: number }[] = [];
  for (const name of names) {
    if (name === mine || !isProjectCacheName(name)) continue;
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (st === undefined || !st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
    if (now - st.mtimeMs > PROJECT_CACHE_MAX_AGE_MS) removeCache(dir, name, removed);
    else live.push({ name, mtimeMs: st.mtimeMs });
  }
  // The one just written counts towards the bound.
  const room = isProjectCacheName(mine) ? MAX_PROJECT_CACHES - 1 : MAX_PROJECT_CACHES;
  live.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? -1 : 1));
  for (const { name } of live.slice(Math.max(0, room))) removeCache(dir, name, removed);
  return removed;
}

function removeCache(dir: string, name: string, removed: string[]): void {
  try {
    fs.unlinkSync(path.join(dir, name));
    removed.push(name);
  } catch {
    /* gone already, or not ours to remove: left */
  }
}

/** Everything `buckler validate` reports, compiled afresh (never from the cache). */
export async function loadPolicyReport(paths: Paths, opts: RuntimeOptions = {}): Promise<PolicyReport> {
  return reportFor(paths, opts, await import('./compiler.ts'));
}

function reportFor(paths: Paths, opts: RuntimeOptions, c: PackCompiler): PolicyReport {
  const { DEFAULT_CONFIG, compilePolicy, formatProblem, parseConfig, unparsableConfig, withStrictReading } = c;
  const problems: Problem[] = [];

  const configFile = opts.configFile ?? paths.configFile;
  let config: BucklerConfig = { ...DEFAULT_CONFIG, packs: {} };
  const before = problems.length;
  const configText = readText(configFile, problems, true);
  if (configText !== null) {
    const parsed = parseConfig(configText, configFile);
    config = parsed.config;
    problems.push(...parsed.problems);
  } else if (problems.length > before) {
    // There but unreadable: the strict reading, never the defaults.
    config = withStrictReading(unparsableConfig(), problems.slice(before), configFile).config;
  }
  if (opts.person !== undefined) {
    const personText = readText(opts.person.configFile, problems, true);
    if (personText !== null) {
      const parsed = parseConfig(personText, opts.person.configFile);
      config = mergeSystemOverUser(config, parsed.config);
      problems.push(...parsed.problems);
    }
  }
  if (opts.tier) config = { ...config, tier: opts.tier };

  const taken = new Map<string, string>();
  const sources = providers(paths, opts).map((p) => p.load({ c, config, problems, taken }));
  const packs = sources.flatMap((s) => s.packs);
  const files = sources.flatMap((s) => s.files);

  const compiled = compilePolicy(packs.map((p) => p.pack), { tier: config.tier, packs: config.packs, examples: opts.examples ?? true });
  problems.push(...compiled.problems);
  if (config.environments !== undefined) compiled.policy.production = config.environments.production;
  unknownPackIds(config, compiled.known, compiled.policy.packs, configFile, configText, c, problems);
  // A project rules file refused or left out (whole or in part): every action in the project
  // asks the person until it is fixed (project-load.ts), however the rest of the policy decides.
  const project = sources.find((s) => s.source === 'project');
  if (project !== undefined) {
    const broken = problems.filter((p) => p.dropped === true && c.isProjectProblem(p, project.dir));
    if (broken.length > 0) {
      const rule = c.brokenProjectRule(opts.project ?? project.dir, formatProblem(broken[0]!), broken.length);
      compiled.policy.rules.push(rule);
      compiled.known.push({ rule, state: 'active', source: project.dir, origin: 'project' });
    }
  }
  return {
    policy: compiled.policy,
    config,
    warnings: problems.map((p) => formatProblem(p)),
    ...(problems.some((p) => p.dropped) ? { dropped: problems.filter((p) => p.dropped).map((p) => formatProblem(p)) } : {}),
    problems,
    files,
    sources,
    checked: compiled.checked,
    known: compiled.known,
  };
}

/**
 * A `[packs]` id that names no pack loaded here is a warning, not an error: it may name a bundle
 * or project pack that loads elsewhere.
 */
function unknownPackIds(config: BucklerConfig, known: readonly KnownRule[], loaded: readonly { id: string }[], file: string, text: string | null, c: PackCompiler, problems: Problem[]): void {
  const ids = new Set<string>([...loaded.map((p) => p.id), ...known.map((k) => k.rule.pack)]);
  const lines = text === null ? [] : text.split(/\r?\n/);
  for (const id of Object.keys(config.packs)) {
    if (ids.has(id)) continue;
    const line = c.lineOfKey(lines, ['packs'], id);
    const message = `[packs] ${id} matches no pack loaded here (it may name a bundle or project pack that loads elsewhere; check the spelling)`;
    problems.push(line === undefined ? { severity: 'warning', file, message } : { severity: 'warning', file, line, message });
  }
}
