import { describe, expect, it } from 'vitest';
import { outputOf } from '../testing.ts';
import { adaptQwenOutput, qwenIsBeforeAction, qwenIsBlocking } from './output.ts';

const pre = { hook_event_name: 'PreToolUse', tool_name: 'run_shell_command', tool_input: { command: 'x' } };

describe('qwen-code output', () => {
  it('denies with permissionDecision, exit 0', () => {
    const r = adaptQwenOutput(outputOf('deny'), pre);
    expect(r.exitCode).toBe(0);
    expect(r.stdout?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'agent: deny' });
    expect(qwenIsBlocking(r)).toBe(true);
  });

  it('sends an ask as a deny that says how to let it through', () => {
    const r = adaptQwenOutput(outputOf('ask'), pre);
    expect(qwenIsBlocking(r)).toBe(true);
    expect(String(r.stdout?.systemMessage)).toContain('Qwen Code cannot ask you from a hook');
  });

  it('reads replies as Qwen does: permissionDecision first, then decision, exit 2', () => {
    expect(qwenIsBlocking({ stdout: { decision: 'block' }, exitCode: 0 })).toBe(true);
    expect(qwenIsBlocking({ stdout: { decision: 'deny' }, exitCode: 0 })).toBe(true);
    expect(qwenIsBlocking({ stdout: { hookSpecificOutput: { permissionDecision: 'allow' }, decision: 'deny' }, exitCode: 0 })).toBe(false);
    expect(qwenIsBlocking({ stdout: null, exitCode: 1 })).toBe(false);
    expect(qwenIsBlocking({ stdout: null, exitCode: 2 })).toBe(true);
  });

  it('never blocks after an action (PostToolUse, PostToolUseFailure)', () => {
    for (const e of ['PostToolUse', 'PostToolUseFailure']) {
      const raw = { ...pre, hook_event_name: e };
      expect(qwenIsBeforeAction(raw)).toBe(false);
      expect(qwenIsBlocking(adaptQwenOutput(outputOf('deny'), raw))).toBe(false);
    }
  });
});
