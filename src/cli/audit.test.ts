/**
 * The audit wiring, in process: the hook driver, `check` and `evaluate` append one record per
 * decision when config.toml says audit_log = true (or --audit is given), and never otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../audit/record.ts';
import { run as check } from './check.ts';
import { handleHook } from './driver.ts';
import { run as evaluateCmd } from './evaluate.ts';
import { fakeIO } from './fake-io.testing.ts';
import { run as log } from './log.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-audit-cli-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let env: Record<string, string>;
let n = 0;
beforeEach(async () => {
  const home = path.join(root, `h${n++}`);
  env = { HOME: home, BUCKLER_CONFIG_HOME: path.join(home, 'config'), BUCKLER_STATE_HOME: path.join(home, 'state'), BUCKLER_DATA_HOME: path.join(home, 'data') };
  fs.mkdirSync(env.BUCKLER_CONFIG_HOME as string, { recursive: true });
});

function auditOn(): void {
  fs.writeFileSync(path.join(env.BUCKLER_CONFIG_HOME as string, 'config.toml'), '[core]\naudit_log = true\n');
}

function records(): AuditRecord[] {
  const file = path.join(env.BUCKLER_STATE_HOME as string, 'audit.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditRecord);
}

const cursorEvent = (command: string): string =>
  JSON.stringify({ hook_event_name: 'beforeShellExecution', command, cwd: '/tmp', conversation_id: 'c', generation_id: 'g' });

describe('audit wiring', () => {
  it('hook driver: one redacted record per decision when audit_log = true', async () => {
    auditOn();
    const r = await handleHook(['--driver', 'cursor'], fakeIO({ env, stdin: cursorEvent('GITHUB_TOKEN=abc123 git push --force origin main') }));
    expect(r.output.decision).toBe('deny');
    const [rec, ...rest] = records();
    expect(rest).toHaveLength(0);
    expect(rec).toMatchObject({
      record_version: 1,
      harness: 'cursor',
      event: 'beforeShellExecution',
      trigger: 'pre_shell_exec',
      decision: 'deny',
      pack: 'agent-git',
      bypass: false,
      command: 'GITHUB_TOKEN=[REDACTED] git push --force origin main',
      redacted: [{ field: 'command', kinds: ['secret_assignment'], count: 1 }],
    });
    expect(rec?.rule).toMatch(/^agent-git\//);
  });

  it('hook driver: an unreadable event is recorded too (fail-closed deny with its error)', async () => {
    auditOn();
    await handleHook(['--driver', 'cursor'], fakeIO({ env, stdin: '{"hook_event_name": "beforeShellExecution", ' }));
    expect(records()).toMatchObject([{ harness: 'cursor', decision: 'deny', error: 'bad_json', command: null }]);
  });

  it('hook driver: the operator bypass is recorded', async () => {
    auditOn();
    await handleHook(['--driver', 'cursor'], fakeIO({ env: { ...env, BUCKLER_BYPASS: '1' }, stdin: cursorEvent('git commit -m x') }));
    expect(records()).toMatchObject([{ decision: 'allow', bypass: true, command: 'git commit -m x' }]);
  });

  it('nothing is written when audit_log = false', async () => {
    fs.mkdirSync(env.BUCKLER_CONFIG_HOME as string, { recursive: true });
    fs.writeFileSync(path.join(env.BUCKLER_CONFIG_HOME as string, 'config.toml'), '[core]\naudit_log = false\n');
    await handleHook(['--driver', 'cursor'], fakeIO({ env, stdin: cursorEvent('git push --force') }));
    expect(await check(['git push --force origin main'], fakeIO({ env }))).toBe(1);
    expect(records()).toEqual([]);
  });

  it('by default a hook records its deny but not its allow, and a person\'s check is not recorded', async () => {
    await handleHook(['--driver', 'cursor'], fakeIO({ env, stdin: cursorEvent('ls') }));
    await handleHook(['--driver', 'cursor'], fakeIO({ env, stdin: cursorEvent('git push --force') }));
    expect(await check(['git push --force origin main'], fakeIO({ env }))).toBe(1);
    expect(records()).toMatchObject([{ decision: 'deny', command: 'git push --force' }]);
  });

  it('check --audit and evaluate --audit write one record each; buckler log shows them', async () => {
    expect(await check(['--audit', 'curl -u me:pw https://x'], fakeIO({ env }))).toBe(0);
    const input = { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'script', shell: { command: 'git push -f' } };
    expect(await evaluateCmd(['--audit'], fakeIO({ env, stdin: JSON.stringify(input) }))).toBe(0);
    expect(records()).toMatchObject([
      { harness: 'cli', decision: 'allow', command: 'curl -u me:[REDACTED] https://x' },
      { harness: 'script', decision: 'deny', command: 'git push -f' },
    ]);
    const io = fakeIO({ env });
    expect(log(['--decision', 'deny'], io)).toBe(0);
    expect(io.stdout).toMatch(/ deny +script +agent-git\/\S+ +git push -f\n$/);
  });

  it('a log that cannot be written changes nothing but a warning', async () => {
    auditOn();
    fs.mkdirSync(path.dirname(env.BUCKLER_STATE_HOME as string), { recursive: true });
    fs.writeFileSync(env.BUCKLER_STATE_HOME as string, 'a file where the directory should be');
    const io = fakeIO({ env, stdin: cursorEvent('git push --force') });
    const r = await handleHook(['--driver', 'cursor'], io);
    expect(r.output.decision).toBe('deny');
    expect(io.stderr).toMatch(/warning: audit record not written/);
  });

  it.runIf(process.platform !== 'win32')('a symlink at the log path: the hook decides as usual, nothing is written through it', async () => {
    auditOn();
    const state = env.BUCKLER_STATE_HOME as string;
    fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    const target = path.join(root, `victim-${n}`);
    fs.writeFileSync(target, 'echo hello\n');
    fs.symlinkSync(target, path.join(state, 'audit.jsonl'));
    const io = fakeIO({ env, stdin: cursorEvent('git push --force') });
    const r = await handleHook(['--driver', 'cursor'], io);
    expect(r.output.decision).toBe('deny');
    expect(r.reply.stdout).toMatchObject({ permission: 'deny' });
    expect(io.stderr).toMatch(/audit record not written .*it is a symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('echo hello\n');
  });
});
