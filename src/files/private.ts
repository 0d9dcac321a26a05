/**
 * Files only this user may read or write, in a directory only this user may enter: the audit
 * log and the allow-once store. The agent can write files in the user's home, so it can plant
 * things at these paths; the checks here refuse what it could plant.
 * - the directory must be a real directory (not a symlink) owned by this user; it is made 0700;
 * - the file is opened with O_NOFOLLOW (a symlink is refused, never followed) and O_NONBLOCK
 *   (a FIFO cannot hang a hook), then fstat: only a regular file owned by this user with one
 *   link (a hard link would point the writes at another file) is used; it is made 0600.
 */
import fs from 'node:fs';
import path from 'node:path';
import { acquireLock, lockFileFor } from './lock.ts';

/** The path exists but must not be used: a symlink, a FIFO, another user's file, … */
export class UnsafeFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`unsafe file ${file}: ${reason}`);
  }
}

/** 0 on Windows, which has neither. */
export const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
export const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** Why the directory must not hold a private file; null when it is a real directory of ours. */
export function dirProblem(st: fs.Stats, uid: number | undefined): string | null {
  if (st.isSymbolicLink()) return 'its directory is a symbolic link';
  if (!st.isDirectory()) return 'its directory is not a directory';
  if (uid !== undefined && st.uid !== uid) return `its directory belongs to another user (uid ${st.uid})`;
  return null;
}

/** Why the open file must not be used; null when it is a regular file of ours with one link. */
export function fileProblem(st: fs.Stats, uid: number | undefined): string | null {
  if (!st.isFile()) return 'it is not a regular file';
  if (uid !== undefined && st.uid !== uid) return `it belongs to another user (uid ${st.uid})`;
  if (st.nlink !== 1) return `it has ${st.nlink} hard links (writes would reach another file)`;
  return null;
}

/** Creates `dir` (0700) if needed and checks it; throws `UnsafeFileError` for `file` when it is not ours. */
export function ensurePrivateDir(dir: string, file: string, uid: number | undefined, make: (f: string, r: string) => Error = (f, r) => new UnsafeFileError(f, r)): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  const problem = dirProblem(st, uid);
  if (problem) throw make(file, problem);
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/**
 * Opens `file` with `flags` (O_NOFOLLOW and O_NONBLOCK added) and checks what was opened.
 * Returns null when it does not exist and `flags` do not create it.
 */
export function openPrivate(file: string, flags: number, uid: number | undefined, make: (f: string, r: string) => Error = (f, r) => new UnsafeFileError(f, r)): number | null {
  let fd: number;
  try {
    fd = fs.openSync(file, flags | O_NOFOLLOW | O_NONBLOCK, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && (flags & fs.constants.O_CREAT) === 0) return null;
    if (code === 'ELOOP') throw make(file, 'it is a symbolic link');
    // A FIFO with no reader, or a socket or device.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') throw make(file, 'it is not a regular file');
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    const problem = fileProblem(st, uid);
    if (problem) throw make(file, problem);
    if ((st.mode & 0o777) !== 0o600 && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0) fs.fchmodSync(fd, 0o600);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** The whole text of a private file; null when it does not exist. */
export function readPrivate(file: string, uid: number | undefined): string | null {
  ensureDirOk(path.dirname(file), file, uid);
  const fd = openPrivate(file, fs.constants.O_RDONLY, uid);
  if (fd === null) return null;
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Checks the directory without creating it (absent is fine: nothing to read). */
function ensureDirOk(dir: string, file: string, uid: number | undefined): void {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined) return;
  const problem = dirProblem(st, uid);
  if (problem) throw new UnsafeFileError(file, problem);
}

/**
 * Renames `file` (which `fd` has open) to `to`, replacing what was there: for a log grown too
 * large. Under the file's lock, without waiting (another process is rotating it: the caller
 * writes to whichever file is there), and only if the path still names the file `fd` has open,
 * so processes that all find the file full rotate it once. Returns whether the path now names
 * another file (the caller reopens it).
 */
export function rotateOpenFile(file: string, fd: number, to: string): boolean {
  let held;
  try {
    held = acquireLock(lockFileFor(file), { waitMs: 0 });
  } catch {
    return false;
  }
  try {
    const open = fs.fstatSync(fd);
    const now = fs.lstatSync(file, { throwIfNoEntry: false });
    if (now !== undefined && now.ino === open.ino && now.dev === open.dev) fs.renameSync(file, to);
    return true;
  } finally {
    held.release();
  }
}
