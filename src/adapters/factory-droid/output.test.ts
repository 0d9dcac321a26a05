import { describe, expect, it } from 'vitest';
import { outputOf } from '../testing.ts';
import { adaptDroidOutput, droidIsBeforeAction, droidIsBlocking } from './output.ts';

const pre = { hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command: 'x' } };
const post = { ...pre, hook_event_name: 'PostToolUse' };

describe('factory-droid output', () => {
  it('denies with permissionDecision and a systemMessage, exit 0, never continue:false or exit 3', () => {
    const r = adaptDroidOutput(outputOf('deny'), pre);
    expect(r).toEqual({
      exitCode: 0,
      stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'agent: deny' }, systemMessage: 'person: deny' },
    });
    expect(droidIsBlocking(r)).toBe(true);
  });

  it('turns an ask (only logged by Droid) into a deny that says how to let it through', () => {
    const r = adaptDroidOutput(outputOf('ask'), pre);
    const specific = r.stdout?.hookSpecificOutput as Record<string, string>;
    expect(specific.permissionDecision).toBe('deny');
    expect(String(r.stdout?.systemMessage)).toContain('BUCKLER_BYPASS=1');
    expect(JSON.stringify(r)).not.toContain('"ask"');
    expect(JSON.stringify(r)).not.toContain('continue');
  });

  it('after an action: context only, never blocking', () => {
    for (const d of ['deny', 'ask', 'nudge'] as const) {
      const r = adaptDroidOutput(outputOf(d), post);
      expect(droidIsBlocking(r)).toBe(false);
      expect(r.stdout?.hookSpecificOutput).toMatchObject({ hookEventName: 'PostToolUse' });
    }
    expect(droidIsBeforeAction(post)).toBe(false);
  });

  it('says nothing on events it does not gate; unreadable payloads are before an action', () => {
    expect(adaptDroidOutput(outputOf('deny'), { hook_event_name: 'Stop' }).stdout).toBeNull();
    expect(droidIsBeforeAction(undefined)).toBe(true);
    expect(droidIsBlocking({ stdout: { hookSpecificOutput: { permissionDecision: 'ask' } }, exitCode: 0 })).toBe(false);
    expect(droidIsBlocking({ stdout: null, exitCode: 2 })).toBe(true);
  });
});
