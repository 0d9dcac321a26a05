/**
 * The compiled-pack cache, pure part: what keys a cache entry, the digest that binds an entry to
 * those keys, and how a cached entry is checked before use. The hook path reads the cache
 * instead of parsing YAML and TOML and running rule examples on every call
 * (docs/performance.md); `runtime.ts` does the file I/O.
 *
 * A cache entry is used only when its stamp equals the stamp computed now from every input:
 * each builtin pack, each user pack, config.toml (present or absent), the code that compiled
 * it, and the load options. Anything else about it (unreadable, truncated, an older shape) makes
 * it a miss, never an error.
 *
 * The digest. A cache file is a header line `buckler-policy-cache v3 digest=<16 hex>` and the
 * record; the digest is taken over the stamp computed NOW and the record's bytes, so it binds the
 * compiled policy to the inputs and the code that produced it. A record edited by hand (a `deny`
 * turned into an `allow`), torn, truncated, or copied from another installation or another set
 * of packs fails the check: it is refused, reported by `buckler validate`, and rebuilt.
 *
 * What it does not do, honestly: the agent runs as the user, and the state directory is in the
 * user's home. There is no secret such a process cannot read, so no digest, keyed or not, can
 * stop an agent that reads this file and recomputes the digest on purpose; nor could one stop
 * it from editing config.toml, rules.d or Buckler's own bundle, which it can write just as well.
 * Against that adversary the guard is elsewhere: the harness's sandbox or running the agent as
 * another user (docs/security.md). What the digest and the checks in runtime.ts guarantee is
 * narrower and testable: a cache that is not byte for byte what this code compiled for these
 * inputs is never trusted, and a cache reached through a symlink, or not owned by the user, is
 * never read nor written through.
 *
 * Why a small hash written here and not node:crypto's SHA-256: with no secret, a cryptographic
 * hash buys nothing here (both are recomputable by whoever can write the file), and every change
 * of one 32-bit word is caught with certainty by this one (each step is a bijection, see
 * `digestOf`). Measured on a hook: importing node:crypto costs about 1.7 ms, node:zlib (crc32)
 * pulls in node:stream, about 3 ms; this costs about 0.3 ms for the 24 KB record, against a
 * warm hook's whole budget of a few milliseconds (docs/performance.md).
 */
import { isAscii } from 'node:buffer';
import { DECISIONS } from '../core/contract.ts';
import { POLICY_FORMAT, TIERS } from '../core/policy.ts';
import type { BucklerConfig } from './config.ts';
import type { CompiledPolicy, CompiledRule, OrderedRule, RuleBuckets } from '../core/policy.ts';
import { BUILTIN_TEXTS, BUILTIN_TEXTS_ID } from '../grammars/builtin-texts.ts';
import { lazyGrammars } from '../grammars/lazy.ts';
import type { FileState } from './file-state.ts';

export type { FileState } from './file-state.ts';

/** Bumped when the cache record's shape changes. */
export const CACHE_FORMAT = 5;

/** The first line of a cache file, before the digest. */
const HEADER = `buckler-policy-cache v${CACHE_FORMAT} digest=`;
/** 16 hex digits. The header line is 48 bytes, so the record starts 4-byte aligned. */
const DIGEST_LENGTH = 16;

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
    // The builtin programs the record's grammars are relative to (cacheRecordText).
    `format\t${CACHE_FORMAT}\t${POLICY_FORMAT}\t${BUILTIN_TEXTS_ID}`,
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

/** A short, stable name for a project root (cache file names): FNV-1a, 32 bits, hex. */
export function projectKey(root: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < root.length; i++) h = Math.imul(h ^ root.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * Cache file name for a set of load options: a few fixed names; plus one per project that has
 * project rules (`project`: its root), so that hooks in two such projects do not evict each other.
 */
export function cacheFileName(options: StampParts['options'], project?: string): string {
  return `policy-${options.tier ?? 'config'}${options.examples ? '' : '-noexamples'}${project === undefined ? '' : `-p${projectKey(project)}`}.json`;
}

export interface CachedLoad {
  policy: CompiledPolicy;
  config: BucklerConfig;
  warnings: string[];
  dropped?: string[];
}

/**
 * The record is a head and sections. The head (one JSON line) holds what every hook needs: the
 * config, the packs, the warnings, the rules every command meets (`RuleBuckets.common`), and
 * where each section is with its digest. Each section (a JSON text after the head) is one
 * program's data, or one rule whose every `shell_segments` entry names programs; a hook reads,
 * verifies and parses only the sections of the programs on its line (issue: unrelated packs must
 * cost nothing). Program data is stored only where it differs from the builtin data this code
 * carries (added or extended by packs): the builtin programs come from the code, whose identity
 * (and that of its builtin data) is part of the stamp.
 */
export function cacheRecordText(stamp: string, loaded: CachedLoad): string {
  const sections: string[] = [];
  let at = 0;
  const section = (text: string): SectionRef => {
    const ascii = asciiJson(text);
    const ref: SectionRef = [at, ascii.length, digestOf(stamp, Buffer.from(ascii, 'latin1'))];
    sections.push(ascii);
    at += ascii.length;
    return ref;
  };
  const grammars: Record<string, SectionRef | ''> = {};
  for (const [name, g] of Object.entries(loaded.policy.grammars)) {
    const text = JSON.stringify(g);
    if (BUILTIN_TEXTS[name] !== text) grammars[name] = section(text);
  }
  // A policy without some builtin program (none the compiler makes, but the record says so exactly).
  for (const name of Object.keys(BUILTIN_TEXTS)) if (!Object.hasOwn(loaded.policy.grammars, name)) grammars[name] = '';
  const common: CompiledRule[] = [];
  const refs: (SectionRef | null)[] = [];
  const programs: Record<string, number[]> = {};
  loaded.policy.rules.forEach((rule, order) => {
    const named = rule.shell_segments !== null && rule.shell_segments.length > 0 && rule.shell_segments.every((m) => m.program !== undefined && m.program.length > 0);
    if (!named) {
      common.push(rule);
      refs.push(null);
      return;
    }
    refs.push(section(JSON.stringify(rule)));
    for (const name of new Set(rule.shell_segments!.flatMap((m) => m.program!))) (Object.hasOwn(programs, name) ? programs[name]! : (programs[name] = [])).push(order);
  });
  const head = { cache_format: CACHE_FORMAT, stamp, sections: { length: at, rules: refs, programs }, loaded: { ...loaded, policy: { ...loaded.policy, rules: common, grammars } } };
  return `${asciiJson(JSON.stringify(head))}\n${sections.join('')}`;
}

/** Where a section is in the record's section part, its length, and its digest. */
type SectionRef = [number, number, string];

/**
 * JSON text with every character outside ASCII written as `\uXXXX` (the same value once parsed).
 * A hook reads an ASCII record as a one-byte string, copied as is (`recordText`): one `…` in a
 * message used to make V8 decode the whole record into a two-byte string, and parse that
 * (0.1–0.15 ms of a warm hook, measured).
 */
function asciiJson(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A record's text: as one-byte characters when it is ASCII (what this code writes), else decoded from UTF-8. */
function recordText(record: Buffer): string {
  return isAscii(record) ? record.toString('latin1') : record.toString('utf8');
}

/**
 * The digest of a record's bytes bound to a stamp: four 32-bit lanes seeded from the stamp, each
 * folding in every fourth 32-bit word of the record (`h = imul(h ^ w, odd)`: for each word a
 * bijection of h, so changing any one word always changes its lane), then mixed into 64 bits
 * (murmur3's finaliser, a bijection, applied so that no lane's change can cancel another's). Four independent lanes because the loop runs
 * before V8 has optimised it: fewer steps per word is what makes it cheap. Not cryptographic, on
 * purpose: see the file comment.
 */
function digestOf(stamp: string, record: Uint8Array): string {
  let h1 = 0x9e3779b9;
  for (let i = 0; i < stamp.length; i++) h1 = Math.imul(h1 ^ stamp.charCodeAt(i), 0x85ebca6b);
  let h2 = h1 ^ 0x7f4a7c15;
  let h3 = h1 ^ 0x6a09e667;
  let h4 = h1 ^ 0x3c6ef372;
  const n = record.length >>> 2;
  let bytes = record;
  if ((record.byteOffset & 3) !== 0) bytes = new Uint8Array(record); // a copy, 4-byte aligned
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, n);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    h1 = Math.imul(h1 ^ (words[i] as number), 0x85ebca6b);
    h2 = Math.imul(h2 ^ (words[i + 1] as number), 0xc2b2ae35);
    h3 = Math.imul(h3 ^ (words[i + 2] as number), 0x27d4eb2f);
    h4 = Math.imul(h4 ^ (words[i + 3] as number), 0x165667b1);
  }
  for (; i < n; i++) h1 = Math.imul(h1 ^ (words[i] as number), 0x85ebca6b);
  for (let j = n << 2; j < bytes.length; j++) h2 = Math.imul(h2 ^ (bytes[j] as number), 0xc2b2ae35);
  h1 ^= record.length;
  const mix = (h: number): number => {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return h ^ (h >>> 16);
  };
  // For a fixed other lane each half is a bijection of either of its lanes: no change cancels out.
  const lo = mix(h1 ^ mix(h3));
  const hi = mix(h2 ^ mix(h4));
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/** The whole cache file: the header line with the digest of the record's head, then the record. */
export function cacheFileText(stamp: string, loaded: CachedLoad): string {
  const record = cacheRecordText(stamp, loaded);
  const head = record.slice(0, record.indexOf('\n'));
  return `${HEADER}${digestOf(stamp, Buffer.from(head, 'latin1'))}\n${record}`;
}

/** What a cache file holds for a stamp. */
export type CacheVerdict =
  | { kind: 'hit'; loaded: CachedLoad }
  /** A whole, intact record, compiled for other inputs or code: rebuilt without fuss. */
  | { kind: 'stale' }
  /** Not what Buckler wrote (edited, torn, foreign): refused, reported, rebuilt. */
  | { kind: 'damaged'; reason: string };

const NEWLINE = 0x0a;

/**
 * Verifies a cache file's bytes against the stamp computed now: the head's digest first (over
 * the bytes as read, before any parsing), then the record's shape (`readCacheRecord`). `lazy`
 * (the hook): a section's digest is checked when the section is first used, and a damaged one
 * calls `onDamaged` (runtime.ts removes the file) and throws `DamagedCacheError` then; otherwise (`buckler validate`, tests) every section's digest is
 * checked now.
 */
export function readCacheFile(bytes: Buffer, stamp: string, opts: { lazy?: boolean; onDamaged?: () => void } = {}): CacheVerdict {
  const nl = bytes.indexOf(NEWLINE);
  const header = nl < 0 ? '' : bytes.toString('latin1', 0, nl);
  if (!header.startsWith(HEADER) || header.length !== HEADER.length + DIGEST_LENGTH) {
    // Written by an earlier version (a bare JSON record, no header, or the header of an older
    // format): replaced without fuss.
    if (bytes.subarray(0, 16).toString('latin1') === '{"cache_format":') return { kind: 'stale' };
    const older = /^buckler-policy-cache v(\d+) digest=[0-9a-f]{16}$/.exec(header);
    if (older !== null && Number(older[1]) < CACHE_FORMAT) return { kind: 'stale' };
    return { kind: 'damaged', reason: bytes.length === 0 ? 'empty file' : 'no digest header' };
  }
  const record = bytes.subarray(nl + 1);
  const end = record.indexOf(NEWLINE);
  const head = end < 0 ? record : record.subarray(0, end);
  const body = end < 0 ? record.subarray(record.length) : record.subarray(end + 1);
  if (digestOf(stamp, head) !== header.slice(HEADER.length)) {
    // Stale or damaged? An intact record for other inputs carries a digest that matches its own stamp.
    let recorded: unknown;
    try {
      recorded = (JSON.parse(recordText(head)) as { stamp?: unknown }).stamp;
    } catch {
      recorded = undefined;
    }
    if (typeof recorded === 'string' && recorded !== stamp && digestOf(recorded, head) === header.slice(HEADER.length)) return { kind: 'stale' };
    return { kind: 'damaged', reason: DIGEST_MISMATCH };
  }
  const loaded = end < 0 ? null : readRecord(recordText(head), stamp, body, opts.lazy !== true, opts.onDamaged);
  if (loaded === 'digest') return { kind: 'damaged', reason: DIGEST_MISMATCH };
  return loaded === null ? { kind: 'damaged', reason: 'the record does not have the expected shape' } : { kind: 'hit', loaded };
}

const DIGEST_MISMATCH = 'digest mismatch (the file was changed after Buckler wrote it)';

/** Thrown when a section of a cache record that passed its checks is damaged after all (found when first used). */
export class DamagedCacheError extends Error {
  constructor(program: string, what: 'grammar' | 'rules' = 'grammar') {
    super(`the compiled-pack cache is damaged (${what} of '${program}'); delete the cache directory ('buckler paths' shows it) to rebuild it`);
  }
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
    isStringOrNull(r['additional_context']) &&
    (r['tighten'] === undefined || r['tighten'] === true) &&
    (r['bundle'] === undefined || r['bundle'] === true) &&
    (r['guard'] === undefined || r['guard'] === true)
  );
}

const isRef = (v: unknown, size: number): v is SectionRef =>
  Array.isArray(v) &&
  v.length === 3 &&
  Number.isSafeInteger(v[0]) &&
  Number.isSafeInteger(v[1]) &&
  (v[0] as number) >= 0 &&
  (v[1] as number) >= 0 &&
  (v[0] as number) + (v[1] as number) <= size &&
  typeof v[2] === 'string' &&
  v[2].length === DIGEST_LENGTH;

const EMPTY = Buffer.alloc(0);

/**
 * The cached load, if `text` (the record's head) is whole and well-formed for exactly `stamp`,
 * with `body` its sections; else null. The check is structural (the compiler validated the
 * content when it wrote the record), so a torn, truncated or hand-edited file is a miss rather
 * than a policy the core trips over. Every section's digest is checked now.
 */
export function readCacheRecord(text: string, stamp: string, body: Buffer = EMPTY): CachedLoad | null {
  const r = readRecord(text, stamp, body, true);
  return r === 'digest' ? null : r;
}

function readRecord(text: string, stamp: string, body: Buffer, verifyAll: boolean, onDamaged?: () => void): CachedLoad | null | 'digest' {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(rec) || rec['cache_format'] !== CACHE_FORMAT || rec['stamp'] !== stamp) return null;
  const loaded = rec['loaded'];
  const sections = rec['sections'];
  if (!isObject(loaded) || !isStrings(loaded['warnings']) || !isObject(sections)) return null;
  if (loaded['dropped'] !== undefined && !isStrings(loaded['dropped'])) return null;
  const { policy, config } = loaded;
  if (!isObject(policy) || !isObject(config)) return null;
  const size = body.length;
  const refs = sections['rules'];
  const programs = sections['programs'];
  // Sections of another length than the head says: changed after they were written.
  if (typeof sections['length'] === 'number' && sections['length'] !== size) return 'digest';
  if (sections['length'] !== size || !Array.isArray(refs) || !refs.every((r) => r === null || isRef(r, size)) || !isObject(programs)) return null;
  const common = policy['rules'];
  if (!Array.isArray(common) || refs.filter((r) => r === null).length !== common.length) return null;
  for (const orders of Object.values(programs)) {
    if (!Array.isArray(orders) || !orders.every((o) => Number.isSafeInteger(o) && refs[o as number] !== null && refs[o as number] !== undefined)) return null;
  }
  if (
    policy['policy_format'] !== POLICY_FORMAT ||
    !(TIERS as readonly unknown[]).includes(policy['tier']) ||
    !Array.isArray(policy['packs']) ||
    !common.every(validRule) ||
    !isObject(policy['grammars']) ||
    !Object.values(policy['grammars']).every((t) => t === '' || isRef(t, size)) ||
    !isStrings(policy['env_keys']) ||
    !(policy['guarded_words'] === undefined || (Array.isArray(policy['guarded_words']) && policy['guarded_words'].every(validGuarded)))
  ) {
    return null;
  }
  if (!(TIERS as readonly unknown[]).includes(config['tier']) || (typeof config['audit_log'] !== 'boolean' && config['audit_log'] !== null) || !isObject(config['packs']) || (config['strict_reading'] !== undefined && typeof config['strict_reading'] !== 'string')) {
    return null;
  }
  const grammarRefs = policy['grammars'] as Record<string, SectionRef | ''>;
  if (verifyAll) {
    // Every byte of the sections belongs to one section whose digest is right.
    const all = [...(refs.filter((r) => r !== null) as SectionRef[]), ...(Object.values(grammarRefs).filter((r) => r !== '') as SectionRef[])].sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [start, length, digest] of all) {
      if (start !== at || digestOf(stamp, body.subarray(start, start + length)) !== digest) return 'digest';
      at = start + length;
    }
    if (at !== size) return 'digest';
  }
  /** A section's text; its digest checked on first use when `verifyAll` did not check it. */
  const sectionText = (ref: SectionRef, program: string, what: 'grammar' | 'rules'): string => {
    const bytes = body.subarray(ref[0], ref[0] + ref[1]);
    if (!verifyAll && digestOf(stamp, bytes) !== ref[2]) throw damaged(program, what);
    return recordText(bytes);
  };
  const damaged = (program: string, what: 'grammar' | 'rules' = 'grammar'): DamagedCacheError => {
    onDamaged?.();
    return new DamagedCacheError(program, what);
  };
  const overrides: Record<string, string | (() => string)> = {};
  for (const name in grammarRefs) {
    const ref = grammarRefs[name]!;
    overrides[name] = ref === '' ? '' : () => sectionText(ref, name, 'grammar');
  }
  policy['grammars'] = lazyGrammars(overrides, (program) => damaged(program));
  lazyRules(policy as unknown as CompiledPolicy, refs as (SectionRef | null)[], programs as Record<string, number[]>, (ref, program) => sectionText(ref, program, 'rules'), (program) => damaged(program, 'rules'));
  return loaded as unknown as CachedLoad;
}

/**
 * Gives `policy` its `rule_buckets` (the common rules now, a program's own when first asked for)
 * and makes `rules` a getter that reads every rule (what validate, explain and tests use).
 */
function lazyRules(
  policy: CompiledPolicy,
  refs: (SectionRef | null)[],
  programs: Record<string, number[]>,
  text: (ref: SectionRef, program: string) => string,
  damaged: (program: string) => DamagedCacheError,
): void {
  const common: OrderedRule[] = [];
  let k = 0;
  refs.forEach((ref, order) => {
    if (ref === null) common.push({ rule: policy.rules[k++]!, order });
  });
  const read = new Map<number, CompiledRule>(common.map((c) => [c.order, c.rule]));
  const ruleAt = (order: number, program: string): CompiledRule => {
    let rule = read.get(order);
    if (rule !== undefined) return rule;
    let value: unknown;
    try {
      value = JSON.parse(text(refs[order]!, program));
    } catch (e) {
      if (e instanceof DamagedCacheError) throw e;
      throw damaged(program);
    }
    if (!validRule(value)) throw damaged(program);
    rule = value as CompiledRule;
    read.set(order, rule);
    return rule;
  };
  const buckets: RuleBuckets = {
    common,
    forProgram: (program) => (Object.hasOwn(programs, program) ? programs[program]!.map((order) => ({ rule: ruleAt(order, program), order })) : []),
  };
  Object.defineProperty(policy, 'rule_buckets', { value: buckets, enumerable: false, configurable: true, writable: true });
  const settle = (self: object, rules: CompiledRule[]): CompiledRule[] => {
    Object.defineProperty(self, 'rules', { value: rules, enumerable: true, configurable: true, writable: true });
    return rules;
  };
  Object.defineProperty(policy, 'rules', {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return settle(
        this,
        refs.map((_, order) => ruleAt(order, `#${order}`)),
      );
    },
    set(this: object, rules: CompiledRule[]) {
      settle(this, rules);
    },
  });
}
