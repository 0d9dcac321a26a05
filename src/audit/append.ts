/**
 * The only audit code that touches the file system: appends one encoded record, and says
 * whether the log can be written safely (`auditHealth`, for `buckler doctor`).
 *
 * Many hook processes append at once. Each record goes out as ONE write(2) on a descriptor
 * opened with O_APPEND: the kernel then places the whole buffer at the end of the file
 * (position update and write are one step for a regular file), so lines neither interleave
 * nor tear. Records are capped in size (record.ts) so one write always carries a whole line.
 *
 * Safety (the agent can write files in the user's home, so it can plant things at the log path):
 * - the file is opened with O_NOFOLLOW, so a symlink at the log path is refused, never written
 *   through (appending to ~/.bashrc through a link would be a way to run code);
 * - with O_NONBLOCK, so a FIFO planted there cannot hang the hook; then fstat: only a regular
 *   file with one link (a hard link would also point the appends at another file) owned by
 *   this user is written;
 * - the directory must be a real directory (not a symlink) owned by this user;
 * - modes are fixed on every open: the directory 0700, the file 0600 (commands can be private
 *   even redacted), whatever an earlier version or another tool left.
 * A log that fails these checks is not written (`UnsafeAuditLogError`); the caller warns on
 * stderr and the decision stands. `auditHealth` runs the same checks without writing, so
 * `buckler doctor` (or anyone) can say later why the log stopped growing.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The log exists but must not be written: a symlink, a FIFO, another user's file, … */
export class UnsafeAuditLogError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`unsafe audit log ${file}: ${reason}`);
  }
}

const { O_WRONLY, O_APPEND, O_CREAT } = fs.constants;
/** 0 on Windows, which has neither. */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

/** Why the directory must not hold the log; null when it is a real directory of ours. */
function dirProblem(st: fs.Stats, uid: number | undefined): string | null {
  if (st.isSymbolicLink()) return 'its directory is a symbolic link';
  if (!st.isDirectory()) return 'its directory is not a directory';
  if (uid !== undefined && st.uid !== uid) return `its directory belongs to another user (uid ${st.uid})`;
  return null;
}

/** Why the open file must not be written; null when it is a regular file of ours with one link. */
function fileProblem(st: fs.Stats, uid: number | undefined): string | null {
  if (!st.isFile()) return 'it is not a regular file';
  if (uid !== undefined && st.uid !== uid) return `it belongs to another user (uid ${st.uid})`;
  if (st.nlink !== 1) return `it has ${st.nlink} hard links (appends would reach another file)`;
  return null;
}

function safeDir(dir: string, file: string, uid: number | undefined): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  const problem = dirProblem(st, uid);
  if (problem) throw new UnsafeAuditLogError(file, problem);
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

function openLog(file: string, uid: number | undefined): number {
  let fd: number;
  try {
    fd = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UnsafeAuditLogError(file, 'it is a symbolic link');
    // A FIFO with no reader, or a socket or device.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') throw new UnsafeAuditLogError(file, 'it is not a regular file');
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    const problem = fileProblem(st, uid);
    if (problem) throw new UnsafeAuditLogError(file, problem);
    if ((st.mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Appends one line. `uid`: the user the log and its directory must belong to (the CLI passes its
 * own; undefined: not checked, as where there are no user ids).
 */
export function appendAuditLine(file: string, line: string, uid?: number): void {
  safeDir(path.dirname(file), file, uid);
  const fd = openLog(file, uid);
  try {
    const buf = Buffer.from(line, 'utf8');
    const written = fs.writeSync(fd, buf, 0, buf.length);
    if (written !== buf.length) throw new Error(`short write: ${written} of ${buf.length} bytes`);
  } finally {
    fs.closeSync(fd);
  }
}

/** What `auditHealth` found. */
export interface AuditHealth {
  file: string;
  /**
   * ok: the next record can be written (modes are fixed then if `note` says so); absent: no log
   * yet (created on the first record); unsafe: a record would be refused (`reason` says why);
   * unreadable: the path cannot be inspected (`reason`).
   */
  state: 'ok' | 'absent' | 'unsafe' | 'unreadable';
  reason?: string;
  /** Something the next write corrects by itself (a mode too open). */
  note?: string;
}

/**
 * The checks `appendAuditLine` makes, without writing or creating anything: whether records
 * can be written to `file`, and if not, why. For `buckler doctor`; a hook only warns on stderr.
 */
export function auditHealth(file: string, uid?: number): AuditHealth {
  const dir = path.dirname(file);
  const notes: string[] = [];
  try {
    const dst = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (dst === undefined) return { file, state: 'absent' };
    const dp = dirProblem(dst, uid);
    if (dp) return { file, state: 'unsafe', reason: dp };
    if ((dst.mode & 0o777) !== 0o700) notes.push(`directory mode ${octal(dst.mode)}, tightened to 0700 on the next record`);
    const st = fs.lstatSync(file, { throwIfNoEntry: false });
    if (st === undefined) return { file, state: 'absent', ...(notes.length ? { note: notes.join('; ') } : {}) };
    if (st.isSymbolicLink()) return { file, state: 'unsafe', reason: 'it is a symbolic link' };
    const fp = fileProblem(st, uid);
    if (fp) return { file, state: 'unsafe', reason: fp };
    if ((st.mode & 0o777) !== 0o600) notes.push(`file mode ${octal(st.mode)}, tightened to 0600 on the next record`);
    fs.accessSync(file, fs.constants.W_OK);
  } catch (e) {
    return { file, state: 'unreadable', reason: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
  return { file, state: 'ok', ...(notes.length ? { note: notes.join('; ') } : {}) };
}
