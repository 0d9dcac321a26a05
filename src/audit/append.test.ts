import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOutput } from '../core/contract.ts';
import { execFileSync } from 'node:child_process';
import { appendAuditLine, auditHealth, UnsafeAuditLogError } from './append.ts';
import { auditDecision } from './index.ts';

const OUT = allowOutput();

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-audit-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('rotation', () => {
  it('a record that would take the log past the limit moves it to .1 first (one older generation)', () => {
    const file = path.join(dir, 'rot', 'audit.jsonl');
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 25; i++) appendAuditLine(file, line, undefined, 1000);
    // 10 lines fit in 1000 bytes: the current file holds what came after the last rotation.
    expect(fs.readFileSync(file, 'utf8').length).toBe(500);
    expect(fs.readFileSync(`${file}.1`, 'utf8').length).toBe(1000);
    expect(fs.existsSync(`${file}.buckler-lock`)).toBe(false);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('auditDecision', () => {
  it('creates the directory 0700 and the file 0600, and appends one line per call', () => {
    const file = path.join(dir, 'state', 'buckler', 'audit.jsonl');
    const input = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'ls' } } as const;
    expect(auditDecision(file, { input, output: OUT })).toBe(true);
    expect(auditDecision(file, { input, output: OUT })).toBe(true);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('never throws when it cannot write: one warning, false', () => {
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, 'x');
    const warnings: string[] = [];
    const ok = auditDecision(path.join(blocker, 'audit.jsonl'), { input: null, output: OUT }, { warn: (m) => warnings.push(m) });
    expect(ok).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^buckler: warning: audit record not written to .*not-a-dir/);
    expect(() =>
      auditDecision(path.join(blocker, 'x'), { input: null, output: OUT }, {
        warn: () => {
          throw new Error('stderr closed');
        },
      }),
    ).not.toThrow();
  });
});

describe('concurrent writers', () => {
  const WRITERS = 56;
  const RECORDS = 60;

  it(`${WRITERS} processes × ${RECORDS} records: every line whole, none lost`, async () => {
    const worker = path.join(dir, 'worker.cjs');
    await build({
      stdin: {
        contents: `
          import { execFileSync } from 'node:child_process';
import { appendAuditLine, auditHealth, UnsafeAuditLogError } from './append.ts';
import { auditDecision } from './index.ts';
          const [file, id, n] = process.argv.slice(2);
          const output = ${JSON.stringify(OUT)};
          for (let i = 0; i < Number(n); i++) {
            // Sizes from a few bytes to past the 4 KiB cap, so some writes are large.
            const pad = 'x'.repeat((i * 997 + Number(id) * 131) % 6000);
            const command = 'echo w' + id + ' s' + i + ' TOKEN=secret' + i + ' ' + pad;
            const ok = auditDecision(file, { input: { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'w' + id, shell: { command } }, output });
            if (!ok) process.exit(3);
          }`,
        resolveDir: import.meta.dirname,
        sourcefile: 'worker.ts',
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: worker,
      logLevel: 'error',
    });
    const file = path.join(dir, 'concurrent', 'audit.jsonl');
    const codes = await Promise.all(
      Array.from(
        { length: WRITERS },
        (_, id) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, [worker, file, String(id), String(RECORDS)], { stdio: 'ignore' });
            child.on('close', resolve);
          }),
      ),
    );
    expect(codes.every((c) => c === 0)).toBe(true);

    // About 10 MB in all: the log was rotated once (at 8 MiB) while the writers ran, and no
    // record was lost or torn across the two files.
    const older = fs.existsSync(`${file}.1`) ? fs.readFileSync(`${file}.1`, 'utf8') : '';
    const text = older + fs.readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(WRITERS * RECORDS);
    const seen = new Map<string, number[]>();
    let bad = 0;
    for (const line of lines) {
      let rec: { harness: string; command: string; redacted?: unknown[] };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        bad++;
        continue;
      }
      const m = /^echo w(\d+) s(\d+) TOKEN=\[REDACTED\] x*$/.exec(rec.command);
      if (!m || rec.harness !== `w${m[1]}` || rec.redacted?.length !== 1) {
        bad++;
        continue;
      }
      const seqs = seen.get(m[1] as string) ?? [];
      seqs.push(Number(m[2]));
      seen.set(m[1] as string, seqs);
    }
    expect(bad).toBe(0);
    expect(seen.size).toBe(WRITERS);
    // Each writer's records all arrived, once each, in the order it wrote them.
    for (const seqs of seen.values()) expect(seqs).toEqual(Array.from({ length: RECORDS }, (_, i) => i));
  }, 120_000);
});

const posix = process.platform !== 'win32';
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
const isRoot = uid === 0;

describe.runIf(posix)('an unsafe log is refused, never written through', () => {
  let n = 0;
  /** A fresh log directory (0700) and the log path in it. */
  const fresh = (): { d: string; file: string } => {
    const d = path.join(dir, `unsafe-${n++}`);
    fs.mkdirSync(d, { mode: 0o700 });
    return { d, file: path.join(d, 'audit.jsonl') };
  };
  const refused = (file: string, reason: RegExp): void => {
    expect(() => appendAuditLine(file, 'x\n', uid)).toThrow(UnsafeAuditLogError);
    expect(() => appendAuditLine(file, 'x\n', uid)).toThrow(reason);
    expect(auditHealth(file, uid)).toMatchObject({ state: 'unsafe', reason: expect.stringMatching(reason) });
  };

  it('a symlink at the log path (to a file the agent wants appended to)', () => {
    const { d, file } = fresh();
    const target = path.join(d, 'bashrc');
    fs.writeFileSync(target, 'original\n');
    fs.symlinkSync(target, file);
    refused(file, /symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('original\n');
  });

  it('a dangling symlink at the log path (a file would be created at its target)', () => {
    const { d, file } = fresh();
    const target = path.join(d, 'created-through-link');
    fs.symlinkSync(target, file);
    refused(file, /symbolic link/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a hard link to another file', () => {
    const { d, file } = fresh();
    const target = path.join(d, 'profile');
    fs.writeFileSync(target, 'original\n');
    fs.linkSync(target, file);
    refused(file, /2 hard links/);
    expect(fs.readFileSync(target, 'utf8')).toBe('original\n');
  });

  it('a FIFO with no reader (refused without hanging)', () => {
    const { file } = fresh();
    execFileSync('mkfifo', [file]);
    refused(file, /not a regular file/);
  });

  it('a directory at the log path', () => {
    const { file } = fresh();
    fs.mkdirSync(file);
    expect(() => appendAuditLine(file, 'x\n')).toThrow();
    expect(auditHealth(file).state).toBe('unsafe');
  });

  it('a symlinked log directory', () => {
    const { d } = fresh();
    const real = path.join(d, 'real');
    fs.mkdirSync(real, { mode: 0o700 });
    const link = path.join(d, 'link');
    fs.symlinkSync(real, link);
    refused(path.join(link, 'audit.jsonl'), /directory is a symbolic link/);
    expect(fs.readdirSync(real)).toEqual([]);
  });

  it.runIf(isRoot)('a log owned by another user', () => {
    const { file } = fresh();
    fs.writeFileSync(file, '', { mode: 0o600 });
    fs.chownSync(file, 4242, 4242);
    refused(file, /belongs to another user \(uid 4242\)/);
  });

  it('the hook side: auditDecision returns false with one warning naming the reason', () => {
    const { d, file } = fresh();
    fs.symlinkSync(path.join(d, 'elsewhere'), file);
    const warnings: string[] = [];
    expect(auditDecision(file, { input: null, output: OUT }, { warn: (m) => warnings.push(m) })).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/audit record not written .*it is a symbolic link/);
  });
});

describe.runIf(posix)('modes are fixed on open', () => {
  it('an existing 0644 log in a 0755 directory becomes 0600 in 0700', () => {
    const d = path.join(dir, 'loose');
    fs.mkdirSync(d, { mode: 0o755 });
    fs.chmodSync(d, 0o755);
    const file = path.join(d, 'audit.jsonl');
    fs.writeFileSync(file, 'old\n');
    fs.chmodSync(file, 0o644);
    expect(auditHealth(file)).toMatchObject({ state: 'ok', note: expect.stringMatching(/directory mode 0755.*file mode 0644/) });
    appendAuditLine(file, 'new\n');
    expect(fs.statSync(d).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('old\nnew\n');
    expect(auditHealth(file)).toEqual({ file, state: 'ok' });
  });

  it('auditHealth of a log not yet written: absent', () => {
    expect(auditHealth(path.join(dir, 'none', 'audit.jsonl'))).toEqual({ file: path.join(dir, 'none', 'audit.jsonl'), state: 'absent' });
  });
});
