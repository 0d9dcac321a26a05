/** Test-only: an in-memory `CliIO` that records what a command printed. */
import type { CliIO } from './io.ts';

export interface FakeIO extends CliIO {
  stdout: string;
  stderr: string;
}

export function fakeIO(opts: { env?: Record<string, string>; cwd?: string; stdin?: string; tty?: boolean } = {}): FakeIO {
  const io: FakeIO = {
    env: opts.env ?? {},
    cwd: opts.cwd ?? '/',
    stdoutIsTTY: opts.tty ?? false,
    stdinIsTTY: false,
    stdout: '',
    stderr: '',
    readStdin: () => Buffer.from(opts.stdin ?? '', 'utf8'),
    out: (t) => {
      io.stdout += t;
    },
    err: (t) => {
      io.stderr += t;
    },
  };
  return io;
}
