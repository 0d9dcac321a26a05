// `buckler allow` end to end, through the built bundle: the block message says what to run, the
// entry lets exactly that command through once in that project, Cursor's two hooks for one call
// count once, 20 concurrent hooks consume a single-use entry exactly once, and the audit log
// records the grant and the use. No timing assertions.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, hook as runHook, sandboxProject, type Ran } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-allow-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const FORCE = 'git push --force origin main';
const shellEvent = (generation: string, command = FORCE): string =>
  JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'c1', generation_id: generation, command, cwd: project, workspace_roots: [project] });
const toolEvent = (generation: string): string =>
  JSON.stringify({ hook_event_name: 'preToolUse', conversation_id: 'c1', generation_id: generation, tool_name: 'Shell', tool_input: { command: FORCE, cwd: project }, workspace_roots: [project] });

function hook(event: string): { permission: string; user_message?: string; agent_message?: string } {
  const r = runHook('cursor', event, { env, cwd: project });
  expect(r.status).toBe(0);
  return decided(r.stdout);
}

/** Cursor's reply; `{}` lets the command run. */
function decided(stdout: string): { permission: string; user_message?: string; agent_message?: string } {
  const reply = JSON.parse(stdout) as { permission?: string };
  return { ...reply, permission: reply.permission ?? 'allow' };
}

const cli = (...args: string[]): Ran => buckler(args, { env, cwd: project });

function auditLines(): Record<string, unknown>[] {
  const file = env.BUCKLER_STATE_HOME !== undefined ? path.join(env.BUCKLER_STATE_HOME, 'audit.jsonl') : path.join(env.XDG_STATE_HOME as string, 'buckler', 'audit.jsonl');
  return fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('buckler allow (built CLI)', () => {
  it('the block message says what to copy; that command then runs once, in that project only', () => {
    const denied = hook(shellEvent('g1'));
    expect(denied.permission).toBe('deny');
    const line = /buckler allow .*/.exec(denied.user_message ?? '')?.[0];
    expect(line).toBe(`buckler allow --project ${project} -- ${FORCE}`);
    expect(denied.agent_message).not.toMatch(/buckler allow/);
    // The person copies it (here: its words, as their shell splits them).
    const added = cli(...(line as string).split(' ').slice(1));
    expect(added.status, added.stderr).toBe(0);
    expect(cli('allow', '--list').stdout).toMatch(/0\/1 used .* git push --force origin main/);
    // Another command, or the same one elsewhere, is still denied and uses nothing.
    expect(hook(shellEvent('g2', 'git push --force origin dev')).permission).toBe('deny');
    const other = path.join(env.HOME as string, 'other');
    fs.mkdirSync(path.join(other, '.git'), { recursive: true });
    const elsewhere = JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'c1', generation_id: 'g3', command: FORCE, cwd: other, workspace_roots: [other] });
    expect(hook(elsewhere).permission).toBe('deny');
    // Cursor asks twice for one call: both allowed, one use.
    expect(hook(shellEvent('g4')).permission).toBe('allow');
    expect(hook(toolEvent('g4')).permission).toBe('allow');
    // The next call is denied again, and --list shows nothing left.
    expect(hook(shellEvent('g5')).permission).toBe('deny');
    expect(cli('allow', '--list').stdout).toBe('');
    const records = auditLines();
    expect(records.filter((r) => (r.allow_once as { action?: string } | undefined)?.action === 'grant')).toHaveLength(1);
    const uses = records.filter((r) => (r.allow_once as { action?: string } | undefined)?.action === 'use');
    expect(uses.map((r) => [r.event, r.decision, r.rule, r.project, r.session])).toEqual([
      ['beforeShellExecution', 'allow', 'agent-git/no-force-push', project, 'c1'],
      ['preToolUse', 'allow', 'agent-git/no-force-push', project, 'c1'],
    ]);
  });

  it('a file tool: the message offers the tool AND its path; the entry lets only that file through', () => {
    const write = (file: string, session: string): Record<string, any> => {
      const r = runHook('claude-code', JSON.stringify({ session_id: session, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'x' }, cwd: project }), { env, cwd: project });
      expect(r.status).toBe(0);
      return r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as Record<string, any>);
    };
    const said = (reply: Record<string, any>): string => JSON.stringify(reply);
    const blocked = write('/etc/hosts', 's1');
    expect(blocked.hookSpecificOutput?.permissionDecision).toMatch(/deny|ask/);
    const line = /buckler allow [^"\\]*/.exec(said(blocked))?.[0];
    expect(line).toBe(`buckler allow --project ${project} -- Write /etc/hosts`);
    const added = cli(...(line as string).split(' ').slice(1));
    expect(added.status, added.stderr).toBe(0);
    // Another file with the same tool is still blocked, and uses nothing.
    expect(write('/etc/sudoers', 's2').hookSpecificOutput?.permissionDecision).toMatch(/deny|ask/);
    expect(write('/etc/hosts', 's3').hookSpecificOutput?.permissionDecision ?? 'allow').toBe('allow');
  });

  it('one quoted word holding a whole line is refused (exit 2) with the shell-quoted line that works', () => {
    const r = cli('allow', '--', FORCE);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`buckler allow -- git push --force origin main`);
    expect(cli('allow', '--list').stderr).toMatch(/no entries/);
    // The look-alike: the same words given separately are granted.
    expect(cli('allow', '--', ...FORCE.split(' ')).status).toBe(0);
  });

  it('warns when what is granted would not be blocked now (the entry is still recorded)', () => {
    const r = cli('allow', '--', 'ls', '-la');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/warning: `ls -la` would not be blocked now/);
    const blocked = cli('allow', '--', ...FORCE.split(' '));
    expect(blocked.status).toBe(0);
    expect(blocked.stderr).not.toMatch(/would not be blocked/);
  });

  it('--revoke removes an entry; bad options are usage errors', () => {
    expect(cli('allow', '--for', '2d', '--', 'ls').status).toBe(2);
    expect(cli('allow', '--uses', '0', '--', 'ls').status).toBe(2);
    expect(cli('allow').status).toBe(2);
    const out = cli('allow', '--', ...FORCE.split(' ')).stdout;
    const id = /allowed (\S+):/.exec(out)?.[1] as string;
    expect(cli('allow', '--revoke', id).status).toBe(0);
    expect(hook(shellEvent('g1')).permission).toBe('deny');
    expect(cli('allow', '--revoke', id).status).toBe(1);
  });

  it('20 concurrent hooks consume a single-use entry: exactly one is allowed', async () => {
    expect(cli('allow', '--project', project, '--', ...FORCE.split(' ')).status).toBe(0);
    const runs = Array.from({ length: 20 }, (_, i) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [bundle(), '--driver', 'cursor'], { env: { ...env, BUCKLER_HOOK_DEADLINE_MS: '60000' }, cwd: project });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
        child.on('error', reject);
        child.on('close', () => resolve(out));
        child.stdin.end(shellEvent(`g-${i}`));
      }),
    );
    const replies = (await Promise.all(runs)).map((o) => decided(o).permission);
    expect(replies.filter((p) => p === 'allow')).toHaveLength(1);
    expect(replies.filter((p) => p === 'deny')).toHaveLength(19);
  }, 120_000);
});
