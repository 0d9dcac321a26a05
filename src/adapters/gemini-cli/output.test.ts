import { describe, expect, it } from 'vitest';
import { failureOutput } from '../reply.ts';
import { outputOf } from '../testing.ts';
import { adaptGeminiOutput, geminiIsBeforeAction, geminiIsBlocking } from './output.ts';

const raw = (hook_event_name: string) => ({ hook_event_name });
const out = (d: 'allow' | 'deny' | 'ask' | 'nudge', e: string) => adaptGeminiOutput(outputOf(d), raw(e)).stdout;

describe('Gemini CLI replies', () => {
  it('BeforeTool: deny with reason (model) and systemMessage (person); allow and nudge print nothing', () => {
    expect(out('deny', 'BeforeTool')).toEqual({ decision: 'deny', reason: 'agent: deny', systemMessage: 'person: deny' });
    expect(out('allow', 'BeforeTool')).toBeNull();
    expect(out('nudge', 'BeforeTool')).toBeNull();
  });

  it('BeforeTool: an ask is a deny that says how to let it through (ask hangs a headless run)', () => {
    const reply = out('ask', 'BeforeTool') as Record<string, string>;
    expect(reply.decision).toBe('deny');
    expect(reply.systemMessage).toMatch(/person: ask.*Gemini CLI cannot ask you from a hook.*BUCKLER_BYPASS=1/);
    expect(reply.reason).toContain('agent: ask');
  });

  it('never stops the agent and never sends ask or allow', () => {
    for (const e of ['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'SessionStart', 'Newer']) {
      for (const d of ['deny', 'ask', 'nudge', 'allow'] as const) {
        const s = JSON.stringify(out(d, e));
        expect(s).not.toContain('"continue"');
        expect(s).not.toMatch(/"decision":"(ask|allow|block)"/);
      }
    }
  });

  it('AfterTool: additionalContext only, never a decision (that would replace the tool result)', () => {
    for (const d of ['deny', 'ask', 'nudge'] as const) {
      const reply = adaptGeminiOutput(outputOf(d), raw('AfterTool'));
      expect(reply.stdout).toEqual({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: expect.any(String) } });
      expect(geminiIsBlocking(reply)).toBe(false);
    }
    expect(geminiIsBeforeAction(raw('AfterTool'))).toBe(false);
  });

  it('BeforeAgent: deny blocks the prompt, nudge adds context; AfterAgent: nothing', () => {
    expect(out('deny', 'BeforeAgent')).toEqual({ decision: 'deny', reason: 'person: deny' });
    expect(out('nudge', 'BeforeAgent')).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'context: nudge' } });
    expect(out('deny', 'AfterAgent')).toBeNull();
  });

  it('an unreadable payload gets the BeforeTool deny', () => {
    const reply = adaptGeminiOutput(failureOutput('stdin was empty', true), undefined);
    expect(geminiIsBlocking(reply)).toBe(true);
    expect(String(reply.stdout?.reason)).toContain('stdin was empty');
  });

  it.each([
    [{ decision: 'deny', reason: 'r' }, 0, true],
    [{ decision: 'block' }, 0, true],
    [{}, 0, false],
    [null, 0, false],
    [null, 1, false],
    [null, 2, true],
    [null, 127, true],
  ])("Gemini's reading: %j exit %i → blocks %s", (stdout, exitCode, want) => {
    expect(geminiIsBlocking({ stdout: stdout as Record<string, unknown> | null, exitCode })).toBe(want);
  });
});
