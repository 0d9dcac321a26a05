/**
 * A rule dropped at load (`action: block`) is reported where a person sees it: in hook mode
 * through the harness's person-facing channel (Claude Code and Gemini CLI `systemMessage`),
 * never blocking because of it and never printing more than one JSON object; and by
 * `buckler doctor` and `buckler hooks status`. Through the built bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../adapters/registry.ts';
import { buckler, e2eDir, homeEnv, hook as runHook } from './e2e.testing.ts';

const home = e2eDir('buckler-dropped-');
beforeAll(() => {
  fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'config', 'rules.d', 'mine.yaml'),
    'pack: mine\nrules:\n  - id: no-curl\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: curl }] }\n    action: block\n',
  );
});

const hook = (driver: string, command: string) => runHook(driver, getAdapter(driver)!.selfTestEvent(command, home), { cwd: home, env: homeEnv(home) });

const NOTICE = /^Buckler: a rule was not loaded and guard nothing: .*mine\.yaml:6 rule mine\/no-curl: "action" must be one of allow, ask, deny, nudge \(got "block"; to block, use deny\); the rule is not loaded\. Run `buckler validate` to see and fix them\.$/;

describe('a rule dropped at load, in hook mode', () => {
  it.each(['claude-code', 'gemini-cli'])('%s: an allowed command gets the notice as systemMessage, and stays allowed', (driver) => {
    for (const run of [1, 2]) {
      // The second run reads the compiled-pack cache: the notice survives it.
      const r = hook(driver, 'curl https://example.com');
      expect(r.status, `run ${run}`).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const reply = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(reply['systemMessage']).toMatch(NOTICE);
      expect(getAdapter(driver)!.isBlocking({ stdout: reply, exitCode: 0 })).toBe(false);
    }
  });

  it('claude-code: a denied command keeps its deny and its message, the notice follows', () => {
    const r = hook('claude-code', 'git push --force origin main');
    const reply = JSON.parse(r.stdout) as { systemMessage: string; hookSpecificOutput: { permissionDecision: string } };
    expect(reply.hookSpecificOutput.permissionDecision).toBe('deny');
    const [person, notice] = reply.systemMessage.split('\n\n');
    expect(person).toMatch(/force/);
    expect(notice).toMatch(NOTICE);
  });

  it('cursor (no such channel): the reply is unchanged; doctor names the rule', () => {
    const r = hook('cursor', 'curl https://example.com');
    expect(r.stdout.includes('not loaded')).toBe(false);
    const d = buckler(['doctor'], { cwd: home, env: homeEnv(home) });
    expect(d.stdout).toMatch(/not loaded: .*mine\.yaml:6 rule mine\/no-curl: "action" must be one of/);
  });

  it('hooks status names it (text and --json)', () => {
    const env = homeEnv(home);
    fs.mkdirSync(path.join(home, '.cursor'), { recursive: true });
    const text = buckler(['hooks', 'status'], { cwd: home, env });
    expect(text.stdout).toMatch(/rules not loaded \(the hooks leave them out; they guard nothing; run 'buckler validate'\):\n {2}.*mine\.yaml:6 rule mine\/no-curl: /);
    const json = buckler(['hooks', 'status', '--json'], { cwd: home, env });
    expect((JSON.parse(json.stdout) as { rules_not_loaded: string[] }).rules_not_loaded).toEqual([expect.stringMatching(/mine\/no-curl/)]);
  });
});
