/**
 * Reads a local script a command runs (`bash ./deploy.sh`, `source x`) so shell analysis can
 * see what it would run. The core stays pure: this is injected as `EvaluateOptions.readScript`.
 *
 * Only small regular files: the file is opened non-blocking and checked on the open descriptor
 * (fstat), so a FIFO or device swapped in between a check and the read can never block a hook.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Scripts and project files (package.json, Makefile) larger than this are not read: the
 * command that runs them is an unseen script, which agent-tamper asks about (strict: denies).
 */
export const MAX_SCRIPT_BYTES = 1024 * 1024;

/**
 * Reads the files a command runs, relative to `cwd`: the text; null when something is there
 * that cannot be read (over the bound, a FIFO or device, unreadable); undefined when nothing is.
 */
export function scriptReader(cwd: string): (file: string) => string | null | undefined {
  return (file) => {
    const r = readSmallFile(path.resolve(cwd, file), MAX_SCRIPT_BYTES);
    return r.kind === 'text' ? r.text : r.kind === 'missing' ? undefined : null;
  };
}

/** What readSmallFile found. */
export type SmallFile = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'refused' };

/**
 * A small regular file's text; `missing` when there is nothing at `file` (or not a readable
 * path); `refused` when something is there but is not a regular file or is larger than `max`.
 */
export function readSmallFile(file: string, max: number): SmallFile {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { kind: code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'refused' };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > max) return { kind: 'refused' };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return { kind: 'text', text: buf.subarray(0, off).toString('utf8') };
  } catch {
    return { kind: 'refused' };
  } finally {
    fs.closeSync(fd);
  }
}
