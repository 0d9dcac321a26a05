import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../audit/record.ts';
import { fakeIO, type FakeIO } from './fake-io.testing.ts';
import { formatRecord, printable, run } from './log.ts';
import { run as stats } from './stats.ts';

const io_ = (env: Record<string, string>, tty = false): FakeIO => fakeIO({ env, tty });

function rec(minutesAgo: number, decision: AuditRecord['decision'], command: string, extra: Partial<AuditRecord> = {}): AuditRecord {
  return {
    record_version: 1,
    time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    harness: 'cursor',
    event: 'beforeShellExecution',
    trigger: 'pre_shell_exec',
    decision,
    pack: decision === 'deny' ? 'agent-git' : null,
    rule: decision === 'deny' ? 'agent-git/no-force-push' : null,
    bypass: false,
    command,
    tool: null,
    ...extra,
  };
}

let home: string;
let env: Record<string, string>;
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-log-'));
  env = { HOME: home, BUCKLER_STATE_HOME: path.join(home, 'state') };
  fs.mkdirSync(env.BUCKLER_STATE_HOME as string);
  const lines = [
    rec(300, 'deny', 'git push -f old'),
    rec(90, 'allow', 'ls'),
    rec(30, 'deny', 'git push --force origin main', { project: '/p/one', session: 's1' }),
    rec(20, 'nudge', 'git add .'),
    rec(10, 'allow', 'git commit -m x', { bypass: true, project: '/p/two', session: 's2' }),
  ].map((r) => JSON.stringify(r));
  lines.splice(2, 0, '{"torn":', 'garbage');
  fs.writeFileSync(path.join(env.BUCKLER_STATE_HOME as string, 'audit.jsonl'), `${lines.join('\n')}\n`);
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('buckler log', () => {
  it('shows the recent decisions, newest last, and counts unparseable lines', () => {
    const io = io_(env);
    expect(run([], io)).toBe(0);
    const lines = io.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/ deny   cursor       agent-git\/no-force-push  git push -f old$/);
    expect(lines[4]).toMatch(/ allow  cursor       -  \(bypass\)  git commit -m x$/);
    expect(io.stdout).not.toContain('\u001b[');
    expect(io.stderr).toBe(`buckler log: skipped 2 unparseable lines in ${path.join(env.BUCKLER_STATE_HOME as string, 'audit.jsonl')}\n`);
  });

  it.each([
    [['--decision', 'deny'], ['git push -f old', 'git push --force origin main']],
    [['--decision=deny,nudge', '-n', '2'], ['git push --force origin main', 'git add .']],
    [['--since', '1h'], ['git push --force origin main', 'git add .', 'git commit -m x']],
    [['--since', '2h', '--decision', 'allow'], ['ls', 'git commit -m x']],
    [['-n1'], ['git commit -m x']],
    [['--rule', 'agent-git/no-force-push'], ['git push -f old', 'git push --force origin main']],
    [['--rule', 'agent-git', '-n', '1'], ['git push --force origin main']],
    [['--project', '/p/one'], ['git push --force origin main']],
    [['--session', 's2'], ['git commit -m x']],
    [['--session', 's1', '--decision', 'allow'], []],
  ])('%j', (args, commands) => {
    const io = io_(env);
    expect(run(['--json', ...args], io)).toBe(0);
    const got = io.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as AuditRecord).command);
    expect(got).toEqual(commands);
  });

  it('colours only on a terminal, and not with NO_COLOR', () => {
    const tty = io_(env, true);
    run(['-n', '1'], tty);
    expect(tty.stdout).toContain('\u001b[32mallow');
    const noColor = io_({ ...env, NO_COLOR: '1' }, true);
    run(['-n', '1'], noColor);
    expect(noColor.stdout).not.toContain('\u001b[');
  });

  it.each([
    [['--decision', 'maybe'], /--decision maybe: expected allow, deny, ask, nudge/],
    [['--since', 'soon'], /--since soon: expected an age/],
    [['-n', '0'], /-n 0: expected a positive whole number/],
    [['--since'], /--since needs a value/],
    [['--bogus'], /unknown option '--bogus'/],
  ])('refuses %j with exit 2', (args, message) => {
    const io = io_(env);
    expect(run(args, io)).toBe(2);
    expect(io.stderr).toMatch(message);
  });

  it('says where the log would be when there is none yet (exit 0), and fails on an unreadable --file', () => {
    const io = io_({ HOME: home, BUCKLER_STATE_HOME: path.join(home, 'nowhere') });
    expect(run([], io)).toBe(0);
    expect(io.stderr).toMatch(/no audit log at .*nowhere\/audit\.jsonl yet/);
    const io2 = io_(env);
    expect(run(['--file', path.join(home, 'missing.jsonl')], io2)).toBe(1);
    expect(io2.stderr).toMatch(/cannot read .*missing\.jsonl/);
  });
});

describe('formatRecord', () => {
  it('shows control characters instead of sending them to the terminal', () => {
    expect(printable('echo \u001b[2J\nrm\t-rf \u202e')).toBe('echo \\x1b[2J\\nrm\\t-rf \\u202e');
    const line = formatRecord(rec(0, 'deny', 'a\nb\u0007'), false);
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('a\\nb\\x07');
  });

  it('marks a cut command, an error and a tool call', () => {
    expect(formatRecord(rec(0, 'deny', 'x', { truncated: [{ field: 'command', bytes: 9000 }] }), false)).toMatch(/ x…\n$/);
    expect(formatRecord(rec(0, 'deny', 'x', { error: 'bad_json' }), false)).toContain('(error: bad_json)');
    expect(formatRecord(rec(0, 'allow', 'x', { command: null, tool: 'Write' }), false)).toMatch(/\[tool Write\]\n$/);
  });
});

describe('buckler stats', () => {
  it('counts by decision, rule, project and day, and the most often blocked commands', () => {
    const io = io_(env);
    expect(stats(['--json'], io)).toBe(0);
    const got = JSON.parse(io.stdout) as { records: number; by_decision: Record<string, number>; by_rule: Record<string, number>; by_project: Record<string, number>; by_day: Record<string, number>; top_blocked: unknown[] };
    expect(got.records).toBe(5);
    expect(got.by_decision).toEqual({ deny: 2, allow: 2, nudge: 1 });
    expect(got.by_rule).toEqual({ 'agent-git/no-force-push': 2, '(no rule)': 3 });
    expect(got.by_project).toEqual({ '(unknown)': 3, '/p/one': 1, '/p/two': 1 });
    expect(Object.values(got.by_day).reduce((a, b) => a + b, 0)).toBe(5);
    expect(got.top_blocked).toEqual([
      { command: 'git push --force origin main', count: 1 },
      { command: 'git push -f old', count: 1 },
    ]);
  });

  it('filters like log, and prints a readable summary', () => {
    const io = io_(env);
    expect(stats(['--decision', 'deny'], io)).toBe(0);
    expect(io.stdout).toMatch(/^2 decisions\nBy decision\n +2  deny\nBy rule\n +2  agent-git\/no-force-push\n/);
    expect(io.stdout).toMatch(/Most often denied or asked\n +1  git push --force origin main\n +1  git push -f old\n$/);
    expect(stats(['-n', '3'], io_(env))).toBe(2);
  });
});
