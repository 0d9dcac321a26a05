/**
 * The CLI's only window on the process. Commands receive a `CliIO` instead of touching
 * `process` themselves, so tests can drive them in-process and the hook path stays lean
 * (fs.writeSync(1, …) avoids building process.stdout: parsers-and-startup.md §1.4).
 */
import fs from 'node:fs';

export interface CliIO {
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The locked-down install's hook: the variables main.ts took out of `env` (systemEnv) before
   * the system config was read; the hook puts back what the loaded system config allows
   * (`[system] allow_bypass`, `allow_location_variables`). Absent elsewhere.
   */
  readonly withheldEnv?: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** True when stdout is a terminal (colour allowed). */
  readonly stdoutIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** All of stdin as bytes. */
  readStdin(): Buffer;
  /**
   * Hook mode: stdin as bytes, up to end of input or, sooner, the first time `complete(bytes so
   * far)` says a whole event has arrived (a harness may leave stdin open after writing it; it is
   * asked only when what arrived ends in `}`), or `timeoutMs` with stdin still open. Absent
   * (test doubles): `readStdin` is used.
   */
  readStdinUntil?(complete: (bytes: Buffer) => boolean, timeoutMs: number): StdinRead;
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
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      // The reader went away (`buckler explain … | head`): nobody reads the rest, which is no
      // error of ours. Stop quietly, with the exit code set so far.
      if (code === 'EPIPE' && fd === 1) process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
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

/** What `readStdinUntil` got: the bytes, and whether it stopped at the time limit. */
export interface StdinRead {
  bytes: Buffer;
  timedOut: boolean;
}

interface PipeHandle {
  open(fd: number): number;
  setBlocking(on: boolean): number;
}

/**
 * Puts stdin (a socket or a pipe) in non-blocking mode through libuv's own pipe handle, and
 * returns that handle to restore blocking mode afterwards; null when it cannot (then stdin is
 * read with blocking reads, as before).
 *
 * Why this and not `process.stdin` or `fs.read`: a harness written in Node hands its hook a
 * Unix socket as stdin, and a blocking read of one that never ends cannot be interrupted. The
 * documented ways round it cost a hook far more than its whole budget (measured on a loaded
 * 2-core machine, median over 40 spawns: `net.Socket({fd: 0})` about 11 ms, a thread-pool
 * `fs.read` about 3.5 ms, this 0.1 ms over a plain blocking read). `process.binding('pipe_wrap')`
 * is deprecated (documentation only) but present in every supported Node; if it ever goes, the
 * fallback is the blocking read, and the e2e test of a stdin left open fails loudly.
 */
function nonBlockingStdin(): PipeHandle | null {
  try {
    const st = fs.fstatSync(0);
    // A regular file never blocks; a terminal is left alone (non-blocking mode would outlive
    // this process in the user's shell).
    if (!st.isSocket() && !st.isFIFO()) return null;
    const wrap = (process as unknown as { binding(name: string): unknown }).binding('pipe_wrap') as {
      Pipe: new (type: number) => PipeHandle;
      constants: { SOCKET: number };
    };
    const pipe = new wrap.Pipe(wrap.constants.SOCKET);
    return pipe.open(0) === 0 ? pipe : null;
  } catch {
    return null;
  }
}

/** Whether the last byte that is not blank is `}`. */
function endsWithBrace(b: Buffer): boolean {
  let i = b.length - 1;
  while (i >= 0 && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i--;
  return i >= 0 && b[i] === 0x7d;
}

/**
 * Hook mode's stdin: read until end of input, or until `complete` accepts what has arrived (a
 * harness may leave stdin open after writing the event), or until `timeoutMs` has passed with
 * stdin still open. Synchronous on purpose: the event is usually whole by the first read, and
 * nothing else is running yet.
 */
function readStdinUntil(complete: (bytes: Buffer) => boolean, timeoutMs: number): StdinRead {
  // Date.now, not performance.now: the `performance` global loads perf_hooks (about 1 ms).
  const until = Date.now() + timeoutMs;
  const pipe = nonBlockingStdin();
  const chunks: Buffer[] = [];
  const chunk = Buffer.allocUnsafe(65536);
  let sleeper: Int32Array | undefined; // made only when stdin has to be waited for
  let pause = 1;
  let timedOut = false;
  try {
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(0, chunk, 0, chunk.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EOF') break;
        if (code !== 'EAGAIN') throw e;
        // Nothing yet: wait a little (1, 2, 4, … up to 16 ms) and look again.
        const left = until - Date.now();
        if (left <= 0) {
          timedOut = true;
          break;
        }
        sleeper ??= new Int32Array(new SharedArrayBuffer(4));
        Atomics.wait(sleeper, 0, 0, Math.min(pause, left));
        pause = Math.min(pause * 2, 16);
        continue;
      }
      if (n === 0) break;
      const got = Buffer.from(chunk.subarray(0, n));
      chunks.push(got);
      pause = 1;
      // Asked only when what arrived ends in `}` (a hook event is one JSON object): joining the
      // chunks after every read would copy a 10 MB event 160 times.
      if (endsWithBrace(got) && complete(chunks.length === 1 ? got : Buffer.concat(chunks))) break;
    }
  } finally {
    try {
      pipe?.setBlocking(true);
    } catch {
      /* the mode of a descriptor this process is about to give up */
    }
  }
  return { bytes: Buffer.concat(chunks), timedOut };
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
    readStdinUntil,
    out: (t) => writeAll(1, t),
    err: (t) => writeAll(2, t),
  };
}
