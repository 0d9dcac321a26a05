/**
 * A lock file beside a file Buckler edits, so that Buckler processes edit it one at a time.
 *
 * Taken by creating `<file>.buckler-lock` with O_CREAT|O_EXCL (exactly one process succeeds) and
 * writing the owner into it: `{"pid":…,"host":…,"at":…,"token":…}`. A lock is stale, and is broken, when
 * - its owner ran on this host and that process no longer exists (a killed `hooks merge`), or
 * - it is older than `staleMs` (30 s): a holder keeps it for milliseconds, so an older lock
 *   belongs to a hung process or to a reused pid (a modification time as far in the future
 *   counts the same), or
 * - it is not a lock Buckler wrote (empty, unreadable, not a regular file) and older than
 *   `graceMs` (5 s): a live owner fills it in within microseconds of creating it.
 * Breaking renames the lock to a unique name first and checks it moved the very file it judged
 * stale (same inode), so two processes breaking the same stale lock cannot remove each other's
 * fresh one. Release removes the lock only while it still holds the bytes this process wrote
 * (its random token included).
 *
 * What a lock file cannot do: stop a program that does not take it (an editor). Callers that
 * replace a file compare it again immediately before the rename (see installers/apply.ts).
 */
import fs from 'node:fs';

export interface LockOwner {
  pid: number;
  host: string;
  /** Milliseconds since the epoch when the lock was taken. */
  at: number;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up, in ms (default 15 000). */
  waitMs?: number;
  /** Age after which any lock is stale, in ms (default 30 000). */
  staleMs?: number;
  /** Age after which a lock without a readable owner is stale, in ms (default 5 000). */
  graceMs?: number;
}

export interface HeldLock {
  readonly file: string;
  /** Removes the lock if it is still this one. Never throws. */
  release(): void;
}

/** Someone else holds the lock and did not let go within `waitMs`. */
export class LockBusyError extends Error {
  constructor(
    readonly file: string,
    readonly owner: LockOwner | null,
  ) {
    super(
      owner === null
        ? `${file} is held by another process`
        : `${file} is held by process ${owner.pid} on ${owner.host} since ${new Date(owner.at).toISOString()}`,
    );
    this.name = 'LockBusyError';
  }
}

const DEFAULT_WAIT_MS = 15_000;
const DEFAULT_STALE_MS = 30_000;
const DEFAULT_GRACE_MS = 5_000;

/** The lock file for `file`. */
export function lockFileFor(file: string): string {
  return `${file}.buckler-lock`;
}

/** Whether process `pid` exists on this host (EPERM: it exists, as another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function parseOwner(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v !== 'object' || v === null) return null;
    if (!Number.isSafeInteger(v.pid) || typeof v.host !== 'string' || typeof v.at !== 'number') return null;
    return { pid: v.pid as number, host: v.host, at: v.at };
  } catch {
    return null;
  }
}

interface Seen {
  ino: number;
  dev: number;
  ageMs: number;
  /** The lock's bytes ('' when empty or unreadable). */
  text: string;
  owner: LockOwner | null;
}

/** What is at the lock path now (without following a symlink or blocking on a FIFO), or null. */
function look(file: string): Seen | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return null;
  }
  let text = '';
  if (st.isFile() && st.size > 0 && st.size < 4096) {
    try {
      const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
      try {
        const buf = Buffer.alloc(st.size);
        const n = fs.readSync(fd, buf, 0, st.size, 0);
        text = buf.subarray(0, n).toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      text = '';
    }
  }
  return { ino: st.ino, dev: st.dev, ageMs: Date.now() - st.mtimeMs, text, owner: parseOwner(text) };
}

/** The stale-lock rule (see the header). */
export function isStale(
  seen: { ageMs: number; owner: LockOwner | null },
  opts: { staleMs: number; graceMs: number; host: string; alive: (pid: number) => boolean },
): boolean {
  // A modification time in the future (planted, or a clock step) counts by its distance too, so
  // that no lock can be made to look young forever.
  const age = Math.abs(seen.ageMs);
  if (seen.owner === null) return age > opts.graceMs;
  if (age > opts.staleMs) return true;
  return seen.owner.host === opts.host && !opts.alive(seen.owner.pid);
}

/** Removes the lock judged stale, unless another process replaced it meanwhile. */
function breakLock(file: string, judged: Seen): void {
  const aside = `${file}.stale-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // gone already: someone else broke or released it
  }
  const moved = look(aside);
  // Same inode and same bytes: the very lock judged stale (an inode number alone can be reused
  // at once by a new lock; the bytes carry the owner's pid, time and a random token).
  if (moved === null || moved.ino !== judged.ino || moved.dev !== judged.dev || moved.text !== judged.text) {
    // A fresh lock took the stale one's place between looking and renaming: put it back
    // (link fails if yet another lock is there now, which then stays).
    try {
      fs.linkSync(aside, file);
    } catch {
      /* another lock is in place */
    }
  }
  try {
    fs.unlinkSync(aside);
  } catch {
    /* already gone */
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Tries once: the held lock, or what holds it (throws on errors other than EEXIST). */
function tryCreate(file: string, owner: LockOwner): HeldLock | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  }
  const text = JSON.stringify({ ...owner, token: Math.random().toString(36).slice(2, 12) });
  try {
    fs.writeSync(fd, text);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      try {
        if (look(file)?.text === text) fs.unlinkSync(file);
      } catch {
        /* gone: broken as stale by someone else, nothing to release */
      }
    },
  };
}

/**
 * node:os, loaded only when a lock is taken: this module is on a deny's path (allow-once, the
 * audit log), which takes no lock in the usual case, and loading node:os costs about 0.15 ms.
 */
function hostname(): string {
  return process.getBuiltinModule('node:os').hostname();
}

/**
 * Takes the lock `file`, waiting for a live holder up to `waitMs` and breaking a stale lock.
 * Throws LockBusyError when the wait runs out, or the file system's error when the lock cannot be
 * created at all (a read-only directory, say).
 */
export function acquireLock(file: string, opts: LockOptions = {}): HeldLock {
  const waitMs = opts.waitMs ?? DEFAULT_WAIT_MS;
  const rule = { staleMs: opts.staleMs ?? DEFAULT_STALE_MS, graceMs: opts.graceMs ?? DEFAULT_GRACE_MS, host: hostname(), alive: processAlive };
  const start = Date.now();
  let pause = 2;
  for (;;) {
    const held = tryCreate(file, { pid: process.pid, host: rule.host, at: Date.now() });
    if (held !== null) return held;
    const seen = look(file);
    if (seen === null) continue; // released between our attempt and our look
    if (isStale(seen, rule)) {
      breakLock(file, seen);
      continue;
    }
    if (Date.now() - start >= waitMs) throw new LockBusyError(file, seen.owner);
    sleep(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 50);
  }
}

/** Runs `fn` holding the lock `file`; the lock goes when `fn` returns or throws. */
export function withLock<T>(file: string, fn: () => T, opts: LockOptions = {}): T {
  const held = acquireLock(file, opts);
  try {
    return fn();
  } finally {
    held.release();
  }
}
