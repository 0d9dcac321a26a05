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
import { dirProblem, ensurePrivateDir, fileProblem, openPrivate, rotateOpenFile } from '../files/private.ts';

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

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');
const unsafe = (file: string, reason: string): Error => new UnsafeAuditLogError(file, reason);

function openLog(file: string, uid: number | undefined): number {
  return openPrivate(file, O_WRONLY | O_APPEND | O_CREAT, uid, unsafe) as number;
}

/**
 * Appends one line. `uid`: the user the log and its directory must belong to (the CLI passes its
 * own; undefined: not checked, as where there are no user ids).
 */
export function appendAuditLine(file: string, line: string, uid?: number, maxBytes = MAX_LOG_BYTES): void {
  ensurePrivateDir(path.dirname(file), file, uid, unsafe);
  let fd = openLog(file, uid);
  try {
    const size = fs.fstatSync(fd).size;
    if (size > 0 && size + Buffer.byteLength(line, 'utf8') > maxBytes && rotateOpenFile(file, fd, `${file}.1`)) {
      fs.closeSync(fd);
      fd = -1;
      fd = openLog(file, uid);
    }
    const buf = Buffer.from(line, 'utf8');
    const written = fs.writeSync(fd, buf, 0, buf.length);
    if (written !== buf.length) throw new Error(`short write: ${written} of ${buf.length} bytes`);
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

/** The log is rotated when a record would take it past this size: it becomes `<file>.1`. */
const MAX_LOG_BYTES = 8 * 1024 * 1024;

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
