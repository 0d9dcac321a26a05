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
import type { CompiledPolicy, Tier } from '../core/policy.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { builtinPacksDir, compilerStampFile, type Paths } from '../paths.ts';
import { cacheFileName, cacheRecordText, readCacheRecord, stampOf, type StampParts } from './cache.ts';
import type { BucklerConfig } from './config.ts';
import { bundleSource, directorySource, fileState, readText, type PackSourceProvider, type SourceReport } from './sources.ts';
import type { Problem } from './problems.ts';

type Compiler = typeof import('./compiler.ts');

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
  /** Run rule examples while compiling (default true). */
  examples?: boolean;
  /**
   * Use the compiled-pack cache in the state directory (default true for `loadRuntimePolicy`).
   * `validate` never uses it: it must report every problem afresh.
   */
  cache?: boolean;
}

export interface LoadedPolicy {
  policy: CompiledPolicy;
  config: BucklerConfig;
  /** One line per problem found (file:line rule id: what), for stderr. */
  warnings: string[];
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
}

/**
 * The policy the hook path uses. Compiled packs are cached in the state directory, keyed by
 * every input (see cache.ts), so a warm call stats a handful of files and parses one JSON file:
 * no YAML or TOML parser is loaded and no rule example runs. A stale, corrupt or unreadable
 * cache is rebuilt; a cache that cannot be written is skipped. Neither is ever fatal.
 */
export async function loadRuntimePolicy(paths: Paths, opts: RuntimeOptions = {}): Promise<LoadedPolicy> {
  if (opts.cache === false) return compileFromDisk(paths, opts);
  const options = { tier: opts.tier ?? null, examples: opts.examples ?? true };
  // Stamp first, compile second: an edit made while compiling leaves a stamp that no longer
  // matches, so the next call rebuilds instead of trusting content older than the files.
  const stamp = stampOf(currentInputs(paths, opts, options));
  const file = path.join(paths.cacheDir, cacheFileName(options));
  const hit = readCache(file, stamp);
  if (hit) return hit;
  const loaded = await compileFromDisk(paths, opts);
  writeCache(paths.cacheDir, file, cacheRecordText(stamp, loaded));
  return loaded;
}

async function compileFromDisk(paths: Paths, opts: RuntimeOptions): Promise<LoadedPolicy> {
  const { policy, config, warnings } = reportFor(paths, opts, await import('./compiler.ts'));
  return { policy, config, warnings };
}

function providers(paths: Paths, opts: RuntimeOptions): PackSourceProvider[] {
  return [
    directorySource('builtin', opts.packsDir ?? builtinPacksDir()),
    directorySource('user', opts.rulesDir ?? paths.rulesDir),
    bundleSource(opts.bundlesDir ?? paths.bundlesDir),
  ];
}

function currentInputs(paths: Paths, opts: RuntimeOptions, options: StampParts['options']): StampParts {
  const dirs = providers(paths, opts).map((p) => p.listing());
  return { code: fileState(compilerStampFile()), config: fileState(opts.configFile ?? paths.configFile), dirs, options };
}

function readCache(file: string, stamp: string): LoadedPolicy | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const hit = readCacheRecord(text, stamp);
  return hit && { ...hit, cached: true };
}

/** Atomic (files/atomic.ts): a reader sees the old record or the new one, never part of one. */
function writeCache(dir: string, file: string, text: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(file, text, { mode: 0o600 });
  } catch {
    /* no cache this time: the next hook compiles again */
  }
}

/** Everything `buckler validate` reports, compiled afresh (never from the cache). */
export async function loadPolicyReport(paths: Paths, opts: RuntimeOptions = {}): Promise<PolicyReport> {
  return reportFor(paths, opts, await import('./compiler.ts'));
}

function reportFor(paths: Paths, opts: RuntimeOptions, c: Compiler): PolicyReport {
  const { DEFAULT_CONFIG, compilePolicy, formatProblem, parseConfig } = c;
  const problems: Problem[] = [];

  const configFile = opts.configFile ?? paths.configFile;
  let config: BucklerConfig = { ...DEFAULT_CONFIG, packs: {} };
  const configText = readText(configFile, problems, true);
  if (configText !== null) {
    const parsed = parseConfig(configText, configFile);
    config = parsed.config;
    problems.push(...parsed.problems);
  }
  if (opts.tier) config = { ...config, tier: opts.tier };

  const taken = new Map<string, string>();
  const sources = providers(paths, opts).map((p) => p.load({ c, config, problems, taken }));
  const packs = sources.flatMap((s) => s.packs);
  const files = sources.flatMap((s) => s.files);

  const compiled = compilePolicy(packs.map((p) => p.pack), { tier: config.tier, packs: config.packs, examples: opts.examples ?? true });
  problems.push(...compiled.problems);
  return {
    policy: compiled.policy,
    config,
    warnings: problems.map((p) => formatProblem(p)),
    problems,
    files,
    sources,
    checked: compiled.checked,
  };
}
