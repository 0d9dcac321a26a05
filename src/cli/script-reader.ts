/**
 * Reads a local script a command runs (`bash ./deploy.sh`, `source x`) so shell analysis can
 * see what it would run. The core stays pure: this is injected as `EvaluateOptions.readScript`.
 *
 * Only small regular files: the file is opened non-blocking and checked on the open descriptor
 * (fstat), so a FIFO or device swapped in between a check and the read can never block a hook.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Scripts larger than this are not read (the command is judged without them). */
export const MAX_SCRIPT_BYTES = 64 * 1024;

export function scriptReader(cwd: string): (file: string) => string | null {
  return (file) => {
    let fd: number | undefined;
    try {
      fd = fs.openSync(path.resolve(cwd, file), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > MAX_SCRIPT_BYTES) return null;
      const buf = Buffer.alloc(st.size);
      let off = 0;
      while (off < buf.length) {
        const n = fs.readSync(fd, buf, off, buf.length - off, off);
        if (n === 0) break;
        off += n;
      }
      return buf.subarray(0, off).toString('utf8');
    } catch {
      return null;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  };
}
