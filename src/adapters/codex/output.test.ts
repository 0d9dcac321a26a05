import { describe, expect, it } from 'vitest';
import type { Decision } from '../../core/contract.ts';
import { failureOutput } from '../reply.ts';
import { outputOf } from '../testing.ts';
import { adaptCodexOutput, codexIsBeforeAction, codexIsBlocking } from './output.ts';

const raw = (hook_event_name: string) => ({ hook_event_name });
const pre = (rest: object) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...rest } });

describe('Codex replies, per event and decision', () => {
  it('PreToolUse: deny with both messages; nudge as additionalContext; allow prints nothing', () => {
    const out = (d: Decision) => adaptCodexOutput(outputOf(d), raw('PreToolUse')).stdout;
    expect(out('allow')).toBeNull();
    expect(out('deny')).toEqual({ ...pre({ permissionDecision: 'deny', permissionDecisionReason: 'agent: deny' }), systemMessage: 'person: deny' });
    expect(out('nudge')).toEqual(pre({ additionalContext: 'context: nudge' }));
  });

  it('PreToolUse: an ask is a deny that says how to let it through (Codex treats ask as a failed hook)', () => {
    const reply = adaptCodexOutput(outputOf('ask'), raw('PreToolUse'));
    const specific = reply.stdout?.hookSpecificOutput as Record<string, string>;
    expect(specific.permissionDecision).toBe('deny');
    expect(specific.permissionDecisionReason).toContain('agent: ask');
    expect(String(reply.stdout?.systemMessage)).toMatch(/person: ask.*cannot ask you from a hook.*BUCKLER_BYPASS=1/);
    expect(JSON.stringify(reply.stdout)).not.toContain('"ask"');
    expect(codexIsBlocking(reply)).toBe(true);
  });

  it('never stops the whole turn', () => {
    for (const e of ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop', 'NewEvent']) {
      for (const d of ['deny', 'ask', 'nudge', 'allow'] as const) {
        const s = JSON.stringify(adaptCodexOutput(outputOf(d), raw(e)).stdout);
        expect(s).not.toContain('"continue"');
        expect(s).not.toContain('stopReason');
      }
    }
  });

  it('PostToolUse: context only, never blocks', () => {
    for (const d of ['deny', 'ask', 'nudge'] as const) {
      const reply = adaptCodexOutput(outputOf(d), raw('PostToolUse'));
      expect(Object.keys(reply.stdout?.hookSpecificOutput as object).sort()).toEqual(['additionalContext', 'hookEventName']);
      expect(codexIsBlocking(reply)).toBe(false);
    }
    expect(codexIsBeforeAction(raw('PostToolUse'))).toBe(false);
  });

  it('PermissionRequest: a deny is decision.behavior deny; an ask stays Codex own prompt', () => {
    expect(adaptCodexOutput(outputOf('deny'), raw('PermissionRequest')).stdout).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'agent: deny' } },
      systemMessage: 'person: deny',
    });
    expect(adaptCodexOutput(outputOf('ask'), raw('PermissionRequest')).stdout).toBeNull();
  });

  it('UserPromptSubmit: block with a reason; Stop: nothing; a newer event: the legacy block', () => {
    expect(adaptCodexOutput(outputOf('deny'), raw('UserPromptSubmit')).stdout).toEqual({ decision: 'block', reason: 'person: deny' });
    expect(adaptCodexOutput(outputOf('deny'), raw('Stop')).stdout).toBeNull();
    expect(adaptCodexOutput(outputOf('deny'), raw('PreFutureThing')).stdout).toEqual({ decision: 'block', reason: 'agent: deny', systemMessage: 'person: deny' });
  });

  it('an unreadable payload is answered as a PreToolUse deny', () => {
    const reply = adaptCodexOutput(failureOutput('stdin was empty', true), undefined);
    expect(codexIsBeforeAction(undefined)).toBe(true);
    expect((reply.stdout?.hookSpecificOutput as Record<string, string>).permissionDecisionReason).toContain('stdin was empty');
  });
});

describe("Codex's reading of a reply", () => {
  it.each([
    [{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'r' } }, 0, true],
    [{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: ' ' } }, 0, false],
    [{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'r' } }, 0, false],
    [{ decision: 'block', reason: 'r' }, 0, true],
    [{ decision: 'block' }, 0, false],
    [{ decision: 'deny', reason: 'r' }, 0, false],
    [null, 2, true],
    [null, 1, false],
  ])('%j exit %i → blocks %s', (stdout, exitCode, want) => {
    expect(codexIsBlocking({ stdout: stdout as Record<string, unknown> | null, exitCode })).toBe(want);
  });
});
