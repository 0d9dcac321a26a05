// `buckler doctor --live` end to end: the canary it prints, fed through the built hook of one
// harness (Claude Code), is found by `--check TOKEN` with that harness and its deny; before any
// hook saw it, --check says no hook did (exit 1).
import fs from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, hookDecision, sandboxProject, shellEvent } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-live-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('buckler doctor --live (built CLI)', () => {
  it('prints a canary; --check finds the hook that saw it and what it decided', () => {
    const live = buckler(['doctor', '--live'], { env, cwd: project });
    expect(live.status, live.stderr).toBe(0);
    const canary = /^ {2}(buckler allow --revoke buckler-canary-([0-9a-f]+))$/m.exec(live.stdout);
    expect(canary).not.toBeNull();
    const [, command, token] = canary as RegExpExecArray;
    expect(live.stdout).toContain(`buckler doctor --live --check ${token}`);

    const before = buckler(['doctor', '--live', '--check', token as string], { env, cwd: project });
    expect(before.status).toBe(1);
    expect(before.stdout).toMatch(/^no hook saw the canary buckler-canary-[0-9a-f]+/);

    expect(hookDecision('claude-code', shellEvent('claude-code', command as string, project), { env, cwd: project })).toBe('deny');
    const after = buckler(['doctor', '--live', '--check', token as string], { env, cwd: project });
    expect(after.status, after.stdout + after.stderr).toBe(0);
    expect(after.stdout).toMatch(/ {2}claude-code {2}PreToolUse {2}deny {2}agent-tamper\//);
    expect(after.stdout).toContain('the hook of claude-code saw the canary and blocked it\n');

    // Another token is not this one; a malformed token or --check without --live is a usage error.
    expect(buckler(['doctor', '--live', '--check', 'abcdef012345'], { env, cwd: project }).status).toBe(1);
    expect(buckler(['doctor', '--live', '--check', 'x y'], { env, cwd: project }).status).toBe(2);
    expect(buckler(['doctor', '--check', token as string], { env, cwd: project }).status).toBe(2);
  }, 120_000);
});
