/**
 * The compiled-pack cache, pure part: what keys a cache entry and how a cached entry is checked
 * before use. The hook path reads the cache instead of parsing YAML and TOML and running rule
 * examples on every call (docs/performance.md); `runtime.ts` does the file I/O.
 *
 * A cache entry is used only when its stamp equals the stamp computed now from every input:
 * each builtin pack, each user pack, config.toml (present or absent), the code that compiled
 * it, and the load options. Anything else about it (unreadable, truncated, edited, an older
 * shape) makes it a miss, never an error.
 */
import { DECISIONS } from '../core/contract.ts';
import { POLICY_FORMAT, TIERS } from '../core/policy.ts';
import type { BucklerConfig } from './config.ts';
import type { CompiledPolicy } from '../core/policy.ts';
import type { Grammars, ProgramGrammar } from '../grammars/types.ts';

/** Bumped when the cache record's shape changes. */
export const CACHE_FORMAT = 3;

/** What identifies one input file's content without reading it. */
export interface FileState {
  path: string;
  /** null: the file does not exist (a config.toml that may appear later). */
  stat: { ino: number; size: number; mtimeMs: number; ctimeMs: number } | null;
}

export interface StampParts {
  /** The code that compiles (bundle or source file), so an upgrade invalidates. */
  code: FileState;
  config: FileState;
  /** Pack directories in load order, each with its pack files in load order. */
  dirs: { dir: string; files: FileState[] | null }[];
  options: { tier: string | null; examples: boolean };
}

function fileText(f: FileState): string {
  const s = f.stat;
  return s === null ? `${f.path}\t-` : `${f.path}\t${s.ino}\t${s.size}\t${s.mtimeMs}\t${s.ctimeMs}`;
}

/**
 * One string that changes whenever any input may have changed. mtime, ctime, size and inode
 * together: an editor's rename-over changes the inode, an in-place write changes ctime.
 */
export function stampOf(parts: StampParts): string {
  const lines = [
    `format\t${CACHE_FORMAT}\t${POLICY_FORMAT}`,
    `options\t${parts.options.tier ?? '-'}\t${parts.options.examples ? 1 : 0}`,
    `code\t${fileText(parts.code)}`,
    `config\t${fileText(parts.config)}`,
  ];
  for (const d of parts.dirs) {
    lines.push(`dir\t${d.dir}\t${d.files === null ? '-' : d.files.length}`);
    for (const f of d.files ?? []) lines.push(`pack\t${fileText(f)}`);
  }
  return lines.join('\n');
}

/** Cache file name for a set of load options: a few fixed names, so the cache never grows. */
export function cacheFileName(options: StampParts['options']): string {
  return `policy-${options.tier ?? 'config'}${options.examples ? '' : '-noexamples'}.json`;
}

export interface CachedLoad {
  policy: CompiledPolicy;
  config: BucklerConfig;
  warnings: string[];
}

/**
 * Each program's grammar is stored as a JSON text of its own and parsed on first use
 * (`lazyGrammars`): git's and gh's grammars are half of the record and, with their many
 * distinctly keyed objects, most of its parse time, while a hook reads one command.
 */
export function cacheRecordText(stamp: string, loaded: CachedLoad): string {
  const grammars: Record<string, string> = {};
  for (const [name, g] of Object.entries(loaded.policy.grammars)) grammars[name] = JSON.stringify(g);
  return JSON.stringify({ cache_format: CACHE_FORMAT, stamp, loaded: { ...loaded, policy: { ...loaded.policy, grammars } } });
}

/** Thrown when a grammar text of a cache record that passed its checks is not JSON after all. */
export class DamagedCacheError extends Error {
  constructor(program: string) {
    super(`the compiled-pack cache is damaged (grammar of '${program}'); delete the cache directory ('buckler paths' shows it) to rebuild it`);
  }
}

/** Grammars whose texts are parsed when first looked up, then kept (plain data afterwards). */
function lazyGrammars(texts: Readonly<Record<string, string>>): Grammars {
  const out: Record<string, ProgramGrammar> = {};
  for (const [name, text] of Object.entries(texts)) {
    Object.defineProperty(out, name, {
      enumerable: true,
      configurable: true,
      get(): ProgramGrammar {
        let g: unknown;
        try {
          g = JSON.parse(text);
        } catch {
          throw new DamagedCacheError(name);
        }
        if (!isObject(g)) throw new DamagedCacheError(name);
        Object.defineProperty(out, name, { value: g, enumerable: true, configurable: false, writable: false });
        return g as ProgramGrammar;
      },
    });
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

function validGuarded(g: unknown): boolean {
  return isObject(g) && typeof g['pack'] === 'string' && Array.isArray(g['words']) && g['words'].every(isStrings);
}

function validRule(r: unknown): boolean {
  return (
    isObject(r) &&
    typeof r['id'] === 'string' &&
    typeof r['pack'] === 'string' &&
    isStrings(r['triggers']) &&
    (DECISIONS as readonly unknown[]).includes(r['action']) &&
    typeof r['priority'] === 'number' &&
    (TIERS as readonly unknown[]).includes(r['tier']) &&
    (r['shell_segments'] === null || (Array.isArray(r['shell_segments']) && r['shell_segments'].every(isObject))) &&
    isStringOrNull(r['tool_name']) &&
    (r['env'] === null || isObject(r['env'])) &&
    isStringOrNull(r['user_message']) &&
    isStringOrNull(r['agent_message']) &&
    isStringOrNull(r['additional_context'])
  );
}

/**
 * The cached load, if `text` is a whole, well-formed record for exactly `stamp`; else null.
 * The check is structural (the compiler validated the content when it wrote the record), so a
 * torn, truncated or hand-edited file is a miss rather than a policy the core trips over.
 */
export function readCacheRecord(text: string, stamp: string): CachedLoad | null {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(rec) || rec['cache_format'] !== CACHE_FORMAT || rec['stamp'] !== stamp) return null;
  const loaded = rec['loaded'];
  if (!isObject(loaded) || !isStrings(loaded['warnings'])) return null;
  const { policy, config } = loaded;
  if (!isObject(policy) || !isObject(config)) return null;
  if (
    policy['policy_format'] !== POLICY_FORMAT ||
    !(TIERS as readonly unknown[]).includes(policy['tier']) ||
    !Array.isArray(policy['packs']) ||
    !Array.isArray(policy['rules']) ||
    !policy['rules'].every(validRule) ||
    !isObject(policy['grammars']) ||
    !Object.values(policy['grammars']).every((t) => typeof t === 'string' && t.startsWith('{') && t.endsWith('}')) ||
    !isStrings(policy['env_keys']) ||
    !(policy['guarded_words'] === undefined || (Array.isArray(policy['guarded_words']) && policy['guarded_words'].every(validGuarded)))
  ) {
    return null;
  }
  if (!(TIERS as readonly unknown[]).includes(config['tier']) || typeof config['audit_log'] !== 'boolean' || !isObject(config['packs'])) {
    return null;
  }
  policy['grammars'] = lazyGrammars(policy['grammars'] as Record<string, string>);
  return loaded as unknown as CachedLoad;
}
