/**
 * The one place that reads packs and config from disk: builtin packs (sorted by file name), then
 * user packs from the rules directory (sorted), then `config.toml`, compiled into one policy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompiledPolicy, Tier } from '../core/policy.ts';
import { builtinPacksDir, codeFile, homeFromEnv, resolvePaths, type Env, type Paths } from '../paths.ts';
import { cacheFileName, cacheRecordText, readCacheRecord, stampOf, type FileState, type StampParts } from './cache.ts';
import { compilePolicy, type PackSource } from './compile.ts';
import { DEFAULT_CONFIG, parseConfig, type BucklerConfig } from './config.ts';
import { formatProblem, type Problem } from './problems.ts';
import { YamlSyntaxError, parseYaml } from './yaml.ts';

export type { BucklerConfig } from './config.ts';

export interface RuntimeOptions {
  /** Overrides `[core] tier` of config.toml. */
  tier?: Tier;
  /** Builtin packs directory (default: the packs shipped with Buckler). */
  packsDir?: string;
  /** User packs directory (default: `rules.d` under the config directory). */
  rulesDir?: string;
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
}

export interface PolicyReport extends LoadedPolicy {
  problems: Problem[];
  /** Pack files read, in load order. */
  files: string[];
  /** Rules checked (all packs and tiers). */
  checked: number;
}

const PACK_FILE = /\.ya?ml$/;

function pathsFor(env: Env): Paths {
  const platform = os.platform();
  return resolvePaths({ env, platform, home: homeFromEnv(env, platform) ?? os.homedir() });
}

/**
 * The policy the hook path uses. Compiled packs are cached in the state directory, keyed by
 * every input (see cache.ts), so a warm call stats a handful of files and parses one JSON file:
 * no YAML or TOML parser is loaded and no rule example runs. A stale, corrupt or unreadable
 * cache is rebuilt; a cache that cannot be written is skipped. Neither is ever fatal.
 */
export function loadRuntimePolicy(env: Env, opts: RuntimeOptions = {}): LoadedPolicy {
  const paths = pathsFor(env);
  if (opts.cache === false) return compileFromDisk(paths, opts);
  const options = { tier: opts.tier ?? null, examples: opts.examples ?? true };
  // Stamp first, compile second: an edit made while compiling leaves a stamp that no longer
  // matches, so the next call rebuilds instead of trusting content older than the files.
  const stamp = stampOf(currentInputs(paths, opts, options));
  const file = path.join(paths.cacheDir, cacheFileName(options));
  const hit = readCache(file, stamp);
  if (hit) return hit;
  const loaded = compileFromDisk(paths, opts);
  writeCache(paths.cacheDir, file, cacheRecordText(stamp, loaded));
  return loaded;
}

function compileFromDisk(paths: Paths, opts: RuntimeOptions): LoadedPolicy {
  const { policy, config, warnings } = reportFor(paths, opts);
  return { policy, config, warnings };
}

function fileState(file: string): FileState {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return { path: file, stat: st ? { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : null };
  } catch {
    return { path: file, stat: null };
  }
}

function currentInputs(paths: Paths, opts: RuntimeOptions, options: StampParts['options']): StampParts {
  const dirs = [opts.packsDir ?? builtinPacksDir(), opts.rulesDir ?? paths.rulesDir].map((dir) => {
    let names: string[] | null;
    try {
      names = fs.readdirSync(dir).filter((n) => PACK_FILE.test(n)).sort();
    } catch {
      names = null;
    }
    return { dir, files: names === null ? null : names.map((n) => fileState(path.join(dir, n))) };
  });
  return { code: fileState(codeFile()), config: fileState(opts.configFile ?? paths.configFile), dirs, options };
}

function readCache(file: string, stamp: string): LoadedPolicy | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return readCacheRecord(text, stamp);
}

/** Atomic: a reader sees the old record or the new one, never part of one. */
function writeCache(dir: string, file: string, text: string): void {
  const tmp = `${file}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* never created */
    }
  }
}

/** Everything `buckler validate` reports, compiled afresh (never from the cache). */
export function loadPolicyReport(env: Env, opts: RuntimeOptions = {}): PolicyReport {
  return reportFor(pathsFor(env), opts);
}

function reportFor(paths: Paths, opts: RuntimeOptions): PolicyReport {
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

  const sources: PackSource[] = [];
  const files: string[] = [];
  const builtinDir = opts.packsDir ?? builtinPacksDir();
  for (const [dir, builtin] of [[builtinDir, true], [opts.rulesDir ?? paths.rulesDir, false]] as const) {
    const names = listPackFiles(dir, problems, builtin);
    for (const name of names) {
      const file = path.join(dir, name);
      files.push(file);
      const src = readPack(file, name, builtin, problems);
      if (src) sources.push(src);
    }
  }

  const compiled = compilePolicy(sources, { tier: config.tier, packs: config.packs, examples: opts.examples ?? true });
  problems.push(...compiled.problems);
  return {
    policy: compiled.policy,
    config,
    warnings: problems.map((p) => formatProblem(p)),
    problems,
    files,
    checked: compiled.checked,
  };
}

function listPackFiles(dir: string, problems: Problem[], required: boolean): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => PACK_FILE.test(n))
      .sort();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return [];
    problems.push({ severity: 'error', file: dir, message: `cannot read the packs directory (${code ?? String(e)})` });
    return [];
  }
}

function readText(file: string, problems: Problem[], optional: boolean): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (optional && code === 'ENOENT') return null;
    problems.push({ severity: 'error', file, message: `cannot read the file (${code ?? String(e)})` });
    return null;
  }
}

function readPack(file: string, name: string, builtin: boolean, problems: Problem[]): PackSource | null {
  const text = readText(file, problems, false);
  if (text === null) return null;
  try {
    const { doc, lines, documents } = parseYaml(text, file);
    if (documents > 1) problems.push({ severity: 'warning', file, message: 'holds several YAML documents; only the first is read' });
    return { file, name: name.replace(PACK_FILE, ''), builtin, doc, lines };
  } catch (e) {
    if (!(e instanceof YamlSyntaxError)) throw e;
    const p: Problem = { severity: 'error', file, message: `${e.message} (file skipped)` };
    if (e.line !== undefined) p.line = e.line;
    problems.push(p);
    return null;
  }
}
