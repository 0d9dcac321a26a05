import { describe, expect, it } from 'vitest';
import { failureOutput } from '../reply.ts';
import { outputOf } from '../testing.ts';
import { adaptCopilotOutput, copilotIsBeforeAction, copilotIsBlocking } from './output.ts';

const raw = (hookName: string) => ({ hookName });
const out = (d: 'allow' | 'deny' | 'ask' | 'nudge', e: string) => adaptCopilotOutput(outputOf(d), raw(e)).stdout;

describe('Copilot CLI native replies', () => {
  it('preToolUse: deny, ask (Copilot asks, and denies where it cannot), nudge, allow', () => {
    expect(out('deny', 'preToolUse')).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'agent: deny' });
    expect(out('ask', 'preToolUse')).toEqual({ permissionDecision: 'ask', permissionDecisionReason: 'person: ask' });
    expect(out('nudge', 'preToolUse')).toEqual({ additionalContext: 'context: nudge' });
    expect(out('allow', 'preToolUse')).toBeNull();
  });

  it('post events: additionalContext only, never blocking', () => {
    for (const e of ['postToolUse', 'postToolUseFailure']) {
      for (const d of ['deny', 'ask', 'nudge'] as const) {
        const reply = adaptCopilotOutput(outputOf(d), raw(e));
        expect(Object.keys(reply.stdout ?? {})).toEqual(['additionalContext']);
        expect(copilotIsBlocking(reply)).toBe(false);
      }
      expect(copilotIsBeforeAction(raw(e))).toBe(false);
    }
  });

  it('never a Claude-shaped key (a native hook ignores it), never a stop', () => {
    for (const e of ['preToolUse', 'postToolUse', 'userPromptSubmitted', 'sessionStart', 'newEvent']) {
      for (const d of ['deny', 'ask', 'nudge'] as const) {
        const s = JSON.stringify(out(d, e));
        expect(s).not.toContain('hookSpecificOutput');
        expect(s).not.toContain('"continue"');
      }
    }
  });

  it('userPromptSubmitted: block with a reason; sessionStart: nothing', () => {
    expect(out('deny', 'userPromptSubmitted')).toEqual({ decision: 'block', reason: 'person: deny' });
    expect(out('deny', 'sessionStart')).toBeNull();
  });

  it('a payload without an event, or a newer event, gets the preToolUse deny', () => {
    for (const r of [undefined, {}, raw('newEvent')]) {
      expect(copilotIsBeforeAction(r)).toBe(true);
      const reply = adaptCopilotOutput(failureOutput('no event name', true), r);
      expect(reply.stdout).toMatchObject({ permissionDecision: 'deny' });
    }
  });

  it.each([
    [{ permissionDecision: 'deny', permissionDecisionReason: 'r' }, 0, true],
    [{ permissionDecision: 'ask' }, 0, true],
    [{ additionalContext: 'x' }, 0, false],
    [{ hookSpecificOutput: { permissionDecision: 'deny' } }, 0, false],
    [null, 0, false],
    [null, 1, true],
    [null, 2, true],
  ])("Copilot's reading: %j exit %i → blocks %s", (stdout, exitCode, want) => {
    expect(copilotIsBlocking({ stdout: stdout as Record<string, unknown> | null, exitCode })).toBe(want);
  });
});
