/**
 * Carries out a Plan, holding the config's lock (files/lock.ts): Buckler processes edit one
 * config one at a time, so two merges (or a merge and a strip) never overwrite each other.
 *
 * What is guaranteed: Buckler never replaces bytes it did not read. Under the lock the config is
 * read again and compared with the bytes the plan was made from, then compared once more
 * immediately before the rename; a difference means someone else wrote it, and Buckler plans
 * again from what is there now (planAndApply) or stops with 'changed' (applyPlan). The one window
 * left is between that last comparison and the rename (microseconds): a program that does not
 * take the lock (an editor) and saves inside it is overwritten. Nothing closes it without the
 * editor's cooperation (docs/hooks.md).
 *
 * Every write is atomic (files/atomic.ts): a temporary file in the same directory, flushed,
 * given the original's permission bits (and owner, when allowed), renamed over the target, the
 * directory flushed. A symlinked config is written through: the symlink stays and its target
 * gets the new bytes. A config or directory without any write permission bit is read-only on
 * purpose: Buckler refuses it (checked on the mode bits, so that root respects it too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic.ts';
import { acquireLock, LockBusyError, lockFileFor, type HeldLock, type LockOptions } from '../files/lock.ts';
import { writeTarget } from './config-file.ts';
import { InstallerError, describeFsError } from './errors.ts';
import type { Plan } from './planner.ts';

export interface ApplyOptions {
  /** Lock timing (tests); defaults from files/lock.ts. */
  lock?: LockOptions;
  /** How many times planAndApply plans again after finding the file changed (default 5). */
  attempts?: number;
}

function current(target: string, file: string): Buffer | null {
  try {
    return fs.readFileSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InstallerError('unreadable', file, `cannot read: ${describeFsError(e)}`);
  }
}

function changedError(file: string): InstallerError {
  return new InstallerError('changed', file, 'changed while Buckler was editing it (another program wrote it); nothing written, run the command again');
}

/** Throws 'changed' unless the bytes on disk are still the ones the plan was made from. */
function expectUnchanged(plan: Plan): void {
  const now = current(plan.target, plan.file);
  const unchanged = now === null ? plan.before === null : plan.before !== null && now.equals(plan.before);
  if (!unchanged) throw changedError(plan.file);
}

const READ_ONLY = (mode: number): boolean => (mode & 0o222) === 0;

/** A config or directory without any write bit: refused, whoever runs Buckler (root included). */
function expectWritable(plan: Plan): void {
  const dir = path.dirname(plan.target);
  try {
    const st = fs.statSync(plan.target);
    if (READ_ONLY(st.mode)) {
      throw new InstallerError(
        'unwritable',
        plan.file,
        `is read-only (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); Buckler leaves read-only configs alone, nothing changed (make it writable to let Buckler edit it)`,
      );
    }
  } catch (e) {
    if (e instanceof InstallerError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new InstallerError('unreadable', plan.file, `cannot read: ${describeFsError(e)}`);
  }
  try {
    const st = fs.statSync(dir);
    if (READ_ONLY(st.mode)) {
      throw new InstallerError('unwritable', plan.file, `cannot write in ${dir}: the directory is read-only (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); nothing changed`);
    }
  } catch (e) {
    if (e instanceof InstallerError) throw e;
    /* a missing directory is created for a new file; other errors show when writing */
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  let off = 0;
  while (off < bytes.length) off += fs.writeSync(fd, bytes, off);
}

/** Keeps the original owner when the process may (as root); otherwise the caller owns it. */
function keepOwner(fd: number, owner: Plan['owner']): void {
  if (owner === null) return;
  const st = fs.fstatSync(fd);
  if (st.uid === owner.uid && st.gid === owner.gid) return;
  try {
    fs.fchownSync(fd, owner.uid, owner.gid);
  } catch {
    /* not permitted: the file now belongs to whoever ran Buckler, as with any editor */
  }
}

/** Creates the backup only if there is none: an existing backup holds an earlier original. */
function createBackup(plan: Plan): void {
  if (plan.before === null) return;
  let fd: number;
  try {
    fd = fs.openSync(plan.backup.file, 'wx', plan.mode ?? 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new InstallerError('unwritable', plan.file, `cannot create the backup ${plan.backup.file}: ${describeFsError(e)}; nothing changed`);
  }
  try {
    writeAll(fd, plan.before);
    if (plan.mode !== null) fs.fchmodSync(fd, plan.mode);
    keepOwner(fd, plan.owner);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(plan.backup.file, { force: true });
    throw new InstallerError('unwritable', plan.file, `cannot write the backup ${plan.backup.file}: ${describeFsError(e)}; nothing changed`);
  }
  fs.closeSync(fd);
}

/** Takes the lock beside `target` (creating the directory of a new config first). */
function lock(target: string, file: string, opts: ApplyOptions): HeldLock {
  const dir = path.dirname(target);
  if (!fs.existsSync(dir)) {
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new InstallerError('unwritable', file, `cannot create ${dir}: ${describeFsError(e)}; nothing changed`);
    }
  }
  try {
    return acquireLock(lockFileFor(target), opts.lock);
  } catch (e) {
    if (e instanceof LockBusyError) {
      throw new InstallerError('locked', file, `another Buckler process is editing it (${e.message}); nothing changed, run the command again`);
    }
    throw new InstallerError('unwritable', file, `cannot write in ${dir}: ${describeFsError(e)}; nothing changed`);
  }
}

/** Applies `plan` with the lock held: compare, back up, write (comparing again before the rename). */
function applyLocked(plan: Plan): void {
  expectUnchanged(plan);
  expectWritable(plan);
  if (plan.backup.action === 'create') createBackup(plan);
  if (plan.after === null) {
    expectUnchanged(plan);
    try {
      fs.unlinkSync(plan.target);
    } catch (e) {
      throw new InstallerError('unwritable', plan.file, `cannot remove: ${describeFsError(e)}; nothing changed`);
    }
  } else {
    try {
      writeFileAtomic(plan.target, plan.after, {
        ...(plan.mode === null ? {} : { mode: plan.mode }),
        owner: plan.owner,
        beforeRename: () => expectUnchanged(plan),
      });
    } catch (e) {
      if (e instanceof InstallerError) throw e;
      throw new InstallerError('unwritable', plan.file, `cannot write in ${path.dirname(plan.target)}: ${describeFsError(e)}; nothing changed`);
    }
  }
  if (plan.backup.action === 'remove') fs.rmSync(plan.backup.file, { force: true });
}

/**
 * Applies `plan` to disk, holding the config's lock. Throws InstallerError ('changed' when the
 * file is no longer what the plan was made from); on error the config is left as it was.
 */
export function applyPlan(plan: Plan, opts: ApplyOptions = {}): void {
  if (plan.fileAction === 'none') return;
  const held = lock(plan.target, plan.file, opts);
  try {
    applyLocked(plan);
  } finally {
    held.release();
  }
}

/**
 * Plans and applies with the config's lock held, so the plan that is carried out is made from
 * the bytes on disk under the lock (a first plan without the lock only decides whether there is
 * anything to write at all); when another program (one that does not take the lock) writes the file
 * between planning and the rename, plans again from the new bytes, up to `attempts` times.
 * Returns the plan carried out. This is what `hooks merge` and `hooks strip` use.
 */
export function planAndApply(file: string, makePlan: () => Plan, opts: ApplyOptions = {}): Plan {
  // Nothing to write: no lock (none is needed, and a read-only directory stays untouched).
  const first = makePlan();
  if (first.fileAction === 'none') return first;
  const target = writeTarget(file);
  const held = lock(target, file, opts);
  try {
    const attempts = opts.attempts ?? 5;
    for (let i = 1; ; i++) {
      const plan = makePlan();
      if (plan.fileAction === 'none') return plan;
      if (plan.target !== target) throw changedError(file); // the symlink was repointed meanwhile
      try {
        applyLocked(plan);
        return plan;
      } catch (e) {
        if (!(e instanceof InstallerError && e.code === 'changed') || i >= attempts) throw e;
      }
    }
  } finally {
    held.release();
  }
}
