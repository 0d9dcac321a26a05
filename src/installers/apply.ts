/**
 * Carries out a Plan. Every write is atomic: a temporary file in the same directory, flushed,
 * given the original's permission bits (and owner, when allowed), then renamed over the target
 * — so the config is at every moment either the old bytes or the new ones. A symlinked config
 * is written through: the symlink stays and its target gets the new bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { InstallerError, describeFsError } from './errors.ts';
import type { Plan } from './planner.ts';

function current(target: string, file: string): Buffer | null {
  try {
    return fs.readFileSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InstallerError('unreadable', file, `cannot read: ${describeFsError(e)}`);
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

/** Writes `bytes` to `target` atomically (temp file + rename in the same directory). */
export function writeFileAtomic(target: string, bytes: Buffer, mode: number | null, owner: Plan['owner'], shownAs = target): void {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.buckler-${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = fs.openSync(tmp, 'wx', mode ?? 0o666);
  } catch (e) {
    throw new InstallerError('unwritable', shownAs, `cannot write in ${dir}: ${describeFsError(e)}; nothing changed`);
  }
  try {
    try {
      writeAll(fd, bytes);
      if (mode !== null) fs.fchmodSync(fd, mode);
      keepOwner(fd, owner);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw new InstallerError('unwritable', shownAs, `cannot write: ${describeFsError(e)}; nothing changed`);
  }
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    /* directory fsync is best effort (not supported everywhere) */
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

/** Applies `plan` to disk. Throws InstallerError; on error the config is left as it was. */
export function applyPlan(plan: Plan): void {
  if (plan.fileAction === 'none') return;
  const now = current(plan.target, plan.file);
  const unchanged = now === null ? plan.before === null : plan.before !== null && now.equals(plan.before);
  if (!unchanged) throw new InstallerError('changed', plan.file, 'changed while Buckler was planning its edit; nothing written, run the command again');
  if (plan.backup.action === 'create') createBackup(plan);
  if (plan.after === null) {
    try {
      fs.unlinkSync(plan.target);
    } catch (e) {
      throw new InstallerError('unwritable', plan.file, `cannot remove: ${describeFsError(e)}; nothing changed`);
    }
  } else {
    if (plan.fileAction === 'create') {
      try {
        fs.mkdirSync(path.dirname(plan.target), { recursive: true });
      } catch (e) {
        throw new InstallerError('unwritable', plan.file, `cannot create ${path.dirname(plan.target)}: ${describeFsError(e)}; nothing changed`);
      }
    }
    writeFileAtomic(plan.target, plan.after, plan.mode, plan.owner, plan.file);
  }
  if (plan.backup.action === 'remove') fs.rmSync(plan.backup.file, { force: true });
}
