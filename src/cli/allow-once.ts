/**
 * Allow-once: a person lets one blocked simple command through, in one project, for a few uses
 * and a short time (docs/allow-once.md). The store is one JSON file in the state directory
 * (0600 in a 0700 directory, opened without following links, like the audit log); every change
 * happens under its lock file and replaces the file atomically, so concurrent hooks consume a
 * use exactly once.
 *
 * The core stays pure: the driver applies entries after `evaluate`, and only when the decision
 * is deny or ask before an action (this module is imported only then).
 *
 * One use is one tool call. Cursor asks twice for one shell call (beforeShellExecution, then
 * preToolUse); both carry the same conversation and generation ids. A consumption records that
 * call key (harness, conversation, generation, argv): the same key within REUSE_MS of the use
 * matches again without taking another use. Without a generation id every hook is a use.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PolicyInput, PolicyOutput } from '../core/contract.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { lockFileFor, withLock } from '../files/lock.ts';
import { ensurePrivateDir, readPrivate, UnsafeFileError } from '../files/private.ts';

export const STORE_VERSION = 1;
export const DEFAULT_USES = 1;
export const DEFAULT_TTL_MS = 10 * 60_000;
export const MAX_TTL_MS = 24 * 3600_000;
export const MAX_USES = 100;
/** How long after a use the same tool call (same call key) may match again. */
export const REUSE_MS = 60_000;

export interface AllowEntry {
  id: string;
  argv: string[];
  project: string;
  /** ms since the epoch. */
  created: number;
  expires: number;
  uses: number;
  used: number;
  /** The tool calls that used it: their key and when. */
  calls: { key: string; at: number }[];
}

interface Store {
  version: number;
  entries: AllowEntry[];
}

export function storeFile(stateHome: string): string {
  return path.join(stateHome, 'allow-once.json');
}

function isEntry(v: unknown): v is AllowEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    Array.isArray(e.argv) &&
    e.argv.every((a) => typeof a === 'string') &&
    typeof e.project === 'string' &&
    typeof e.created === 'number' &&
    typeof e.expires === 'number' &&
    typeof e.uses === 'number' &&
    typeof e.used === 'number' &&
    Array.isArray(e.calls)
  );
}

/** The store's entries; [] when there is none. Throws on an unsafe or malformed store. */
export function readStore(file: string, uid: number | undefined): AllowEntry[] {
  const text = readPrivate(file, uid);
  if (text === null) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON (remove it to start again)`);
  }
  const s = data as Partial<Store>;
  if (typeof data !== 'object' || data === null || s.version !== STORE_VERSION || !Array.isArray(s.entries) || !s.entries.every(isEntry)) {
    throw new Error(`${file} is not an allow-once store of version ${STORE_VERSION} (remove it to start again)`);
  }
  return s.entries;
}

function writeStore(file: string, entries: AllowEntry[], uid: number | undefined): void {
  ensurePrivateDir(path.dirname(file), file, uid);
  // The store is replaced, never written through: a link planted at its path is replaced too.
  writeFileAtomic(file, `${JSON.stringify({ version: STORE_VERSION, entries } satisfies Store)}\n`, { mode: 0o600 });
}

/** Whether the entry can still match a new tool call or a repeat of one. */
export function live(e: AllowEntry, now: number): boolean {
  if (now >= e.expires) return false;
  if (e.used < e.uses) return true;
  return e.calls.some((c) => now - c.at < REUSE_MS);
}

/** Runs `fn` on the store's entries under its lock; writes what it returns (unless null). */
export function updateStore<T>(file: string, uid: number | undefined, fn: (entries: AllowEntry[]) => { entries: AllowEntry[] | null; result: T }): T {
  ensurePrivateDir(path.dirname(file), file, uid);
  return withLock(
    lockFileFor(file),
    () => {
      const { entries, result } = fn(readStore(file, uid));
      if (entries !== null) writeStore(file, entries, uid);
      return result;
    },
    { waitMs: 3000 },
  );
}

function newId(): string {
  return `a${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;
}

export interface AddRequest {
  argv: string[];
  project: string;
  uses: number;
  ttlMs: number;
  now: number;
}

export function addEntry(file: string, uid: number | undefined, req: AddRequest): AllowEntry {
  const entry: AllowEntry = {
    id: newId(),
    argv: req.argv,
    project: req.project,
    created: req.now,
    expires: req.now + req.ttlMs,
    uses: req.uses,
    used: 0,
    calls: [],
  };
  return updateStore(file, uid, (entries) => ({ entries: [...entries.filter((e) => live(e, req.now)), entry], result: entry }));
}

export function revokeEntries(file: string, uid: number | undefined, which: string, now: number): AllowEntry[] {
  return updateStore(file, uid, (entries) => {
    const gone = entries.filter((e) => which === 'all' || e.id === which);
    return { entries: entries.filter((e) => !gone.includes(e) && live(e, now)), result: gone };
  });
}

/** The call key of a hook: one tool call, as far as the payload says (see the module comment). */
export function callKey(input: PolicyInput, argv: readonly string[]): string | null {
  const g = input.session?.generation_id;
  if (g === undefined || g === '') return null;
  return JSON.stringify([input.harness ?? '', input.session?.conversation_id ?? '', g, argv]);
}

const sameArgv = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((w, i) => w === b[i]);

/**
 * The simple commands that made a line deny or ask, or null when an entry may not apply (a
 * line-level decision, an opaque command). A file-tool call is named by the tool **and** its
 * paths (absolute, against the call's directory): `['Write', '/etc/hosts']`, so an entry for one
 * file never lets the tool write another.
 */
export function blockingCommands(output: PolicyOutput, input?: PolicyInput): string[][] | null {
  if (output.error !== undefined || (output.decision !== 'deny' && output.decision !== 'ask')) return null;
  const blocking = output.commands.filter((c) => c.decision === 'deny' || c.decision === 'ask');
  if (blocking.length === 0 || blocking.some((c) => c.opaque === true || c.argv.length === 0)) return null;
  return blocking.map((c) => (c.tool === true ? toolArgv(c.argv, input) : c.argv));
}

/** A tool call's entry words: its name, then each path it touches (absolute, once each). */
function toolArgv(argv: readonly string[], input: PolicyInput | undefined): string[] {
  const cwd = input?.context?.cwd ?? input?.shell?.cwd;
  const paths: string[] = [];
  for (const p of input?.tool?.paths ?? []) {
    const abs = path.isAbsolute(p.path) || cwd === undefined ? p.path : path.resolve(cwd, p.path);
    if (!paths.includes(abs)) paths.push(abs);
  }
  return [...argv, ...paths];
}

export interface Consumed {
  ids: string[];
}

/**
 * Consumes one use of a matching entry for each blocking command, all or nothing; null when
 * some blocking command has no live entry (nothing is consumed then).
 */
export function consume(file: string, uid: number | undefined, input: PolicyInput, project: string, argvs: string[][], now: number): Consumed | null {
  if (!fs.existsSync(file)) return null; // the usual case: no entries, no lock taken
  return updateStore<Consumed | null>(file, uid, (stored) => {
    const entries = stored.filter((e) => live(e, now)).map((e) => ({ ...e, calls: e.calls.filter((c) => now - c.at < REUSE_MS) }));
    const ids: string[] = [];
    for (const argv of argvs) {
      const key = callKey(input, argv);
      const candidates = entries.filter((e) => e.project === project && sameArgv(e.argv, argv) && now < e.expires);
      const repeat = key === null ? undefined : candidates.find((e) => e.calls.some((c) => c.key === key));
      if (repeat) {
        ids.push(repeat.id);
        continue;
      }
      const fresh = candidates.find((e) => e.used < e.uses);
      if (!fresh) return { entries: null, result: null };
      fresh.used++;
      if (key !== null) fresh.calls.push({ key, at: now });
      ids.push(fresh.id);
    }
    return { entries: entries.filter((e) => live(e, now)), result: { ids: [...new Set(ids)] } };
  });
}

/** `/^[A-Za-z0-9_@%+=:,./-]+$/`, without a regular expression (the block message of every deny uses it). */
export function plainWord(w: string): boolean {
  if (w === '') return false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    const ok = (c >= 48 && c <= 58) || (c >= 64 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 37 || c === 43 || c === 61 || c === 44 || c === 46 || c === 47 || c === 45;
    if (!ok) return false;
  }
  return true;
}

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(w: string): string {
  return plainWord(w) ? w : `'${w.split("'").join(`'\\''`)}'`;
}

/** What the block message tells the person to run. */
export function allowCommandText(project: string, argvs: string[][]): string {
  return argvs.map((argv) => `buckler allow --project ${shellWord(project)} -- ${argv.map(shellWord).join(' ')}`).join('\n  ');
}

export { UnsafeFileError };
