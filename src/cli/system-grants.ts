/**
 * Allow-once in the locked-down install (docs/allow-once.md, docs/install.md): the store is
 * /var/lib/buckler/<uid>/allow-once.json, written by root only (`sudo buckler allow`), readable
 * by the person's hooks, which cannot write it. So a hook cannot record a use: a grant here is
 * bounded by time only, and lets its command through as often as it runs until it expires.
 *
 * The store keeps the ordinary store's shape (allow-once.ts), so `--list` reads the same; only
 * where it lives, who may write it, and what bounds an entry differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PolicyInput } from '../core/contract.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { lockFileFor, withLock } from '../files/lock.ts';
import { SYSTEM_DIRS } from '../paths.ts';
import { live, readStore, STORE_VERSION, type AllowEntry } from './allow-once.ts';

/** The person's approvals directory in the locked-down install. */
export function systemApprovalsDir(uid: number): string {
  return path.join(SYSTEM_DIRS.state, String(uid));
}

/** Why `dir` must not hold approvals (a directory root owns that no one else can write), or null. */
function rootDirProblem(dir: string): string | null {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined) return null;
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== 0) return `${dir} does not belong to root`;
  if ((st.mode & 0o022) !== 0) return `${dir} can be written by others than root`;
  return null;
}

/**
 * The grants in `file`, refused (thrown) unless it and its directories belong to root and only
 * root can write them. [] when there is none.
 */
export function readSystemStore(file: string): AllowEntry[] {
  for (const dir of [SYSTEM_DIRS.state, path.dirname(file)]) {
    const problem = rootDirProblem(dir);
    if (problem !== null) throw new Error(`${file} not used: ${problem}`);
  }
  const entries = readStore(file, 0);
  if (entries.length > 0 && (fs.statSync(file).mode & 0o022) !== 0) throw new Error(`${file} not used: it can be written by others than root`);
  return entries;
}

/** Creates the person's approvals directory as root: 0755, so their hooks can read it. */
export function ensureSystemApprovalsDir(uid: number): string {
  const dir = systemApprovalsDir(uid);
  fs.mkdirSync(SYSTEM_DIRS.state, { recursive: true, mode: 0o755 });
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const problem = rootDirProblem(dir) ?? rootDirProblem(SYSTEM_DIRS.state);
  if (problem !== null) throw new Error(problem);
  return dir;
}

/** Runs `fn` on the grants under the store's lock (root only); writes what it returns (unless null), 0644. */
export function updateSystemStore<T>(file: string, fn: (entries: AllowEntry[]) => { entries: AllowEntry[] | null; result: T }): T {
  return withLock(
    lockFileFor(file),
    () => {
      const { entries, result } = fn(readSystemStore(file));
      if (entries !== null) writeFileAtomic(file, `${JSON.stringify({ version: STORE_VERSION, entries })}\n`, { mode: 0o644 });
      return result;
    },
    { waitMs: 3000 },
  );
}

/** Adds a time-bound grant for `argv` in `project`, expiring `ttlMs` from `now`. */
export function addSystemGrant(file: string, req: { argv: string[]; project: string; ttlMs: number; now: number }): AllowEntry {
  const entry: AllowEntry = {
    id: `s${req.now.toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`,
    argv: req.argv,
    project: req.project,
    created: req.now,
    expires: req.now + req.ttlMs,
    // Not counted: the hook cannot write the store. Time is the bound.
    uses: 1,
    used: 0,
    calls: [],
  };
  return updateSystemStore(file, (entries) => ({ entries: [...entries.filter((e) => e.expires > req.now), entry], result: entry }));
}

/** Live grants only (by time). */
export function liveGrants(entries: AllowEntry[], now: number): AllowEntry[] {
  return entries.filter((e) => now < e.expires);
}

/**
 * The hook's side: the grants that let every blocking command through (one per command, same
 * project, same words, not expired), or null. Reads only; nothing is consumed.
 */
export function matchSystemGrants(file: string, _input: PolicyInput, project: string, argvs: string[][], now: number): { ids: string[] } | null {
  if (!fs.existsSync(file)) return null;
  const entries = liveGrants(readSystemStore(file), now);
  const ids: string[] = [];
  for (const argv of argvs) {
    const e = entries.find((g) => g.project === project && g.argv.length === argv.length && g.argv.every((w, i) => w === argv[i]));
    if (e === undefined) return null;
    ids.push(e.id);
  }
  return { ids: [...new Set(ids)] };
}

/** Removes grants by id, or all with `all`. */
export function revokeSystemGrants(file: string, which: string, now: number): AllowEntry[] {
  return updateSystemStore(file, (entries) => {
    const gone = entries.filter((e) => (which === 'all' || e.id === which) && live({ ...e, used: 0 }, now));
    return { entries: gone.length === 0 ? null : entries.filter((e) => !gone.includes(e)), result: gone };
  });
}
