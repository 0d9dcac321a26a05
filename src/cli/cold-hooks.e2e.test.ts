/**
 * Issue 21, route 6: 24 hooks start at once with no compiled policy, through the command
 * `buckler hooks merge` wired (Claude Code), run as the harness runs it (through a shell, the
 * event on stdin). One hook compiles the packs under a lock, the others wait for its cache
 * (src/packs/runtime.ts): every hook answers, with the policy's decision, within the harness
 * timeout the installer wrote minus a margin (after which Codex, Factory Droid and Copilot CLI
 * would run the tool anyway).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buckler, e2eDir } from './e2e.testing.ts';

const HOOKS = 24;
/** Left for the harness's own spawning and a loaded machine. */
const MARGIN_MS = 1500;

const tmp = e2eDir('buckler-cold-hooks-');
const home = path.join(tmp, 'home');
const project = path.join(home, 'project');
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'] ?? '', HOME: home });
let command = '';
let timeoutMs = 0;

beforeAll(() => {
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  const r = buckler(['hooks', 'merge', '--harness', 'claude-code'], { env: env(), cwd: project });
  expect(r.status, r.stderr).toBe(0);
  const settings = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>;
  };
  const wired = settings.hooks['PreToolUse']![0]!.hooks[0]!;
  command = wired.command;
  timeoutMs = wired.timeout * 1000;
}, 60_000);

function fire(cmd: string): Promise<{ ms: number; status: number | null; stdout: string; stderr: string }> {
  const started = Date.now();
  const payload = { session_id: 's', transcript_path: '/t', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: cmd }, tool_use_id: 'u' };
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { env: env(), cwd: project });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ ms: Date.now() - started, status, stdout, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

describe('cold hooks at once', () => {
  it(`${HOOKS} hooks with no compiled policy all answer within the harness timeout minus ${MARGIN_MS} ms`, async () => {
    expect(timeoutMs).toBeGreaterThan(MARGIN_MS);
    // No compiled policy: every hook finds none.
    fs.rmSync(path.join(home, '.local', 'state', 'buckler', 'cache'), { recursive: true, force: true });
    const runs = await Promise.all(Array.from({ length: HOOKS }, (_, i) => fire(i % 2 === 0 ? 'git push --force origin main' : 'ls')));
    for (const [i, r] of runs.entries()) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.ms, `hook ${i} took ${r.ms} ms`).toBeLessThan(timeoutMs - MARGIN_MS);
      const reply = r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } });
      const decision = reply.hookSpecificOutput?.permissionDecision ?? 'allow';
      // The policy decided (a deadline's deny would name the deadline instead).
      if (i % 2 === 0) {
        expect(decision).toBe('deny');
        expect(reply.hookSpecificOutput?.permissionDecisionReason ?? '').not.toMatch(/within \d+ ms/);
      } else expect(decision).toBe('allow');
    }
  }, 120_000);
});
