/**
 * Differential, against real bash: random chains of wrappers (with random option spellings from
 * each program's manual) around a denied git action are run by bash with a fake `git` that logs
 * its argv. Whenever bash really ran the denied action, Buckler must not allow the line.
 *
 * Only wrappers installed on the machine take part (the others are skipped, and the count says
 * so); nothing here needs a daemon, a remote host or root. Deterministic: a fixed seed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PolicyInput } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { resolvePaths } from '../paths.ts';
import { loadPolicyReport } from './runtime.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-wrapdiff-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const bin = path.join(dir, 'bin');
const log = path.join(dir, 'git.log');
fs.mkdirSync(bin);
fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "git $*" >> '${log}'\n`, { mode: 0o755 });

const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: dir }, platform: process.platform, home: dir });
const policy = (await loadPolicyReport(paths, { tier: 'baseline', examples: false })).policy;

const have = (p: string): boolean => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0;

/** Each wrapper: ways to write it in front of a command (`%` is the command, already quoted where needed). */
const WRAPPERS: Record<string, string[]> = {
  env: ['env %', 'env -i PATH="$PATH" %', 'env - PATH="$PATH" %', 'env -u HOME %', 'env --unset=HOME A=1 %', 'env -- %', 'env -S "%"'],
  nice: ['nice %', 'nice -n 5 %', 'nice -5 %', 'nice --adjustment=3 %', 'nice -n5 -- %'],
  nohup: ['nohup % 2>/dev/null', 'nohup -- % 2>/dev/null'],
  timeout: ['timeout 5 %', 'timeout -s KILL 5 %', 'timeout --kill-after=1 5s %', 'timeout -v 5 %'],
  stdbuf: ['stdbuf -oL %', 'stdbuf -i 0 -e0 %', 'stdbuf --output=L %'],
  setsid: ['setsid -w %', 'setsid --wait %'],
  xargs: ['echo | xargs -r %', 'echo | xargs %', 'echo x | xargs -I{} %', 'echo | xargs -0 -n 1 %'],
  find: ['find . -maxdepth 0 -exec % \\;', 'find . -maxdepth 0 -execdir % \\;'],
  flock: ['flock LOCK %', 'flock -w 5 LOCK %', 'flock LOCK -c "%"'],
  taskset: ['taskset 0x1 %', 'taskset -c 0 %'],
  chrt: ['chrt -o 0 %', 'chrt --other 0 %'],
  ionice: ['ionice -c 3 %', 'ionice -c2 -n7 %'],
  bash: ['bash -c "%"', 'bash -ec "%"', 'bash -oe pipefail -c "%"', 'bash -ocx pipefail "%" 2>/dev/null', 'bash -o pipefail -c "%"', 'bash --norc -c "%" arg0', 'echo "%" | bash', 'bash -s <<< "%"'],
  sh: ['sh -c "%"', 'sh -xc "%" 2>/dev/null', 'echo "%" | sh -s'],
  dash: ['dash -c "%"'],
  eval: ['eval "%"', 'eval %'],
  command: ['command %', 'command -p %'],
  builtin: ['builtin eval "%"'],
  time: ['time % 2>/dev/null', 'time -p % 2>/dev/null'],
  script: ['script -qc "%" /dev/null >/dev/null', 'script -q /dev/null -c "%" >/dev/null'],
  runuser: [],
  python3: [`python3 -c "import os; os.system('%')"`, `python3 -c "import subprocess as sp; sp.run('%', shell=True)"`, `python3 -c "from os import system; system('%')"`],
  perl: [`perl -e 'system("%")'`],
  node: [`node -e "require('child_process').execSync('%')"`],
  'git-submodule': [],
};

/** Wrappers that take shell text: what they wrap must be one line without double quotes. */
const DENIED = ['git push -f origin main', 'git push --force', 'git push origin +main', 'git -C . push --force-with-lease=x -f'];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const usable = Object.entries(WRAPPERS).filter(([name, forms]) => forms.length > 0 && (name === 'eval' || name === 'builtin' || name === 'command' || name === 'time' || have(name)));

function build(random: () => number, depth: number): string {
  let cmd = DENIED[Math.floor(random() * DENIED.length)]!;
  for (let d = 0; d < depth; d++) {
    const [name, forms] = usable[Math.floor(random() * usable.length)]!;
    const form = forms[Math.floor(random() * forms.length)]!;
    // Text inside double quotes or single-quoted code: keep the inner command free of quotes.
    if (/["']%|%["']/.test(form) && /["'\\]/.test(cmd)) continue;
    if (name === 'xargs' || name === 'script' || name === 'nohup' || name === 'time') {
      // Forms with a pipe or redirection only wrap a simple command.
      if (/[|<>]/.test(cmd)) continue;
    }
    cmd = form.replace('%', cmd);
  }
  return cmd;
}

function bashRan(line: string): string[] {
  fs.rmSync(log, { force: true });
  spawnSync('bash', ['-c', line], {
    cwd: dir,
    env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, HOME: dir, LOCK: path.join(dir, 'lock') },
    timeout: 10_000,
    stdio: 'ignore',
  });
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
}

const isDeniedRun = (argv: string): boolean => /\bpush\b/.test(argv) && (/ -f\b| --force\b| \+main\b/.test(argv));

describe('differential: random wrapper chains run by real bash', () => {
  it('Buckler never allows a line that bash ran as a denied git push', () => {
    const random = rng(20261201);
    const missed: string[] = [];
    let ranDenied = 0;
    let generated = 0;
    for (let n = 0; n < Number(process.env["WRAPDIFF_N"] ?? 150); n++) {
      const line = build(random, 1 + Math.floor(random() * 3));
      generated++;
      const ran = bashRan(line);
      if (!ran.some(isDeniedRun)) continue;
      ranDenied++;
      const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: line } };
      const out = evaluate(input, policy);
      if (out.decision === 'allow' || out.decision === 'nudge') missed.push(`${line} → ${out.decision}`);
    }
    if (process.env["WRAPDIFF_N"] !== undefined) console.log({ generated, ranDenied, usable: usable.map(([n]) => n).join(" ") });
    expect(missed).toEqual([]);
    // The generator must mostly produce lines bash runs to the end (else it tests nothing).
    expect(ranDenied).toBeGreaterThan(generated / 2);
    expect(usable.length).toBeGreaterThan(10);
  }, 120_000);
});
