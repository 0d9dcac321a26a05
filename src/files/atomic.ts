/**
 * The one way Buckler replaces a file: write a temporary file in the same directory (created
 * with O_EXCL, so never someone else's), fsync it, rename it over the target, then fsync the
 * directory where the platform supports it. A reader sees the old bytes or the new ones, never
 * part of either, and after a crash the file is the old or the new one, not empty.
 *
 * No node:crypto here on purpose: the hook launcher (cli/loader.ts) bundles this file, and
 * loading crypto would cost every hook start-up. Temporary names only need to be unlikely to
 * collide; O_EXCL settles a collision (another name is tried).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default 0o666 minus the umask; set exactly when given). */
  mode?: number;
  /** Owner to give the new file when the process may (as root); ignored when not permitted. */
  owner?: { uid: number; gid: number } | null;
  /**
   * Called with the temporary file written and flushed, immediately before the rename: throwing
   * here cancels the write (the temporary file is removed, the target untouched).
   */
  beforeRename?: () => void;
}

/** Where the temporary file for `target` goes: beside it, hidden, recognisably Buckler's. */
export function tempNameFor(target: string): string {
  const salt = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  return path.join(path.dirname(target), `.${path.basename(target)}.buckler-${salt}.tmp`);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += fs.writeSync(fd, bytes, off);
}

function openTemp(target: string, mode: number): { fd: number; tmp: string } {
  for (let attempt = 0; ; attempt++) {
    const tmp = tempNameFor(target);
    try {
      return { fd: fs.openSync(tmp, 'wx', mode), tmp };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw e;
    }
  }
}

/** fsync of a directory: makes a rename durable. Not supported everywhere (Windows): best effort. */
export function fsyncDir(dir: string): void {
  let dfd: number;
  try {
    dfd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(dfd);
  } catch {
    /* EINVAL/EISDIR/EPERM on platforms and file systems without directory fsync */
  } finally {
    fs.closeSync(dfd);
  }
}

/**
 * Replaces `target` with `bytes` atomically. Throws the file system's error (with the target
 * unchanged and no temporary file left behind).
 */
export function writeFileAtomic(target: string, bytes: Uint8Array | string, opts: AtomicWriteOptions = {}): void {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const { fd, tmp } = openTemp(target, opts.mode ?? 0o666);
  try {
    try {
      writeAll(fd, data);
      if (opts.mode !== undefined) fs.fchmodSync(fd, opts.mode);
      if (opts.owner) keepOwner(fd, opts.owner);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    opts.beforeRename?.();
    fs.renameSync(tmp, target);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  fsyncDir(path.dirname(target));
}

/**
 * Creates `target` with `bytes`, never over an existing file or through a link: the temporary
 * file is written and flushed, then hard-linked to the target name (which fails when that name
 * exists), then removed. Throws EEXIST when the target exists; a reader never sees part of it.
 */
export function writeFileNew(target: string, bytes: Uint8Array | string, mode = 0o666): void {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const { fd, tmp } = openTemp(target, mode);
  try {
    try {
      writeAll(fd, data);
      fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.linkSync(tmp, target);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fsyncDir(path.dirname(target));
}

/** Gives the file its original owner when the process may (as root); otherwise leaves it. */
function keepOwner(fd: number, owner: { uid: number; gid: number }): void {
  const st = fs.fstatSync(fd);
  if (st.uid === owner.uid && st.gid === owner.gid) return;
  try {
    fs.fchownSync(fd, owner.uid, owner.gid);
  } catch {
    /* not permitted: the file belongs to whoever ran Buckler, as with any editor */
  }
}
