/**
 * The CLI's only window on the process. Commands receive a `CliIO` instead of touching
 * `process` themselves, so tests can drive them in-process and the hook path stays lean
 * (fs.writeSync(1, …) avoids building process.stdout: parsers-and-startup.md §1.4).
 */
import fs from 'node:fs';

export interface CliIO {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** True when stdout is a terminal (colour allowed). */
  readonly stdoutIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** All of stdin as bytes. */
  readStdin(): Buffer;
  out(text: string): void;
  err(text: string): void;
}

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      throw e;
    }
  }
}

function readAllStdin(): Buffer {
  const chunks: Buffer[] = [];
  // Not zero-filled: only the pages a read touches are ever faulted in (a hook event is small).
  const chunk = Buffer.allocUnsafe(65536);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // A non-blocking stdin handed over by the harness: wait briefly and retry.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/**
 * Whether fd is a terminal, without loading node:tty on the hook path: `tty` pulls in `net` and
 * `stream`, about 7 ms of a hook's start-up (docs/performance.md). A pipe or file is ruled out
 * with one fstat; only a character device is asked of `tty`. (`process.getBuiltinModule`, not
 * `createRequire`: importing node:module costs the hook another 0.7 ms.)
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fs.fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

export function processIO(): CliIO {
  return {
    env: process.env,
    cwd: process.cwd(),
    get stdoutIsTTY() {
      return isTerminal(1);
    },
    get stdinIsTTY() {
      return isTerminal(0);
    },
    readStdin: readAllStdin,
    out: (t) => writeAll(1, t),
    err: (t) => writeAll(2, t),
  };
}
