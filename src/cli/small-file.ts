/**
 * Reading a small regular file without ever blocking: opened non-blocking and checked on the
 * open descriptor (fstat), so a FIFO or device swapped in between a check and the read can
 * never block a hook.
 */
import fs from 'node:fs';

/** What readSmallFile found. */
export type SmallFile = { kind: 'text'; text: string; dev: number; ino: number } | { kind: 'missing' } | { kind: 'refused' };

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
    return { kind: 'text', text: buf.subarray(0, off).toString('utf8'), dev: st.dev, ino: st.ino };
  } catch {
    return { kind: 'refused' };
  } finally {
    fs.closeSync(fd);
  }
}
