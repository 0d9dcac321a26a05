import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOutput } from '../core/contract.ts';
import { auditDecision } from './index.ts';

const OUT = allowOutput();

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-audit-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
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

    const text = fs.readFileSync(file, 'utf8');
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
