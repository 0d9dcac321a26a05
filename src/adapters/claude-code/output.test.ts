import { describe, expect, it } from 'vitest';
import type { Decision } from '../../core/contract.ts';
import { failureOutput } from '../reply.ts';
import { outputOf } from '../testing.ts';
import { adaptClaudeCodeOutput, claudeCodeIsBeforeAction, claudeCodeIsBlocking } from './output.ts';

const raw = (hook_event_name: string) => ({ hook_event_name });
const specific = (hookEventName: string, rest: object) => ({ hookSpecificOutput: { hookEventName, ...rest } });
const ctx = (e: string, text: string) => specific(e, { additionalContext: text });

describe('Claude Code replies, per event and decision', () => {
  const table: [string, Record<Decision, object | null>][] = [
    [
      'PreToolUse',
      {
        allow: null,
        deny: {
          ...specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'agent: deny' }),
          systemMessage: 'person: deny',
        },
        ask: specific('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'person: ask' }),
        nudge: ctx('PreToolUse', 'context: nudge'),
      },
    ],
    [
      'PreSkillShellCommand',
      {
        allow: null,
        deny: {
          ...specific('PreSkillShellCommand', { permissionDecision: 'deny', permissionDecisionReason: 'agent: deny' }),
          systemMessage: 'person: deny',
        },
        ask: specific('PreSkillShellCommand', { permissionDecision: 'ask', permissionDecisionReason: 'person: ask' }),
        nudge: null,
      },
    ],
    [
      'PermissionRequest',
      {
        allow: null,
        deny: {
          ...specific('PermissionRequest', { decision: { behavior: 'deny', message: 'agent: deny' } }),
          systemMessage: 'person: deny',
        },
        ask: null,
        nudge: null,
      },
    ],
    [
      'UserPromptSubmit',
      {
        allow: null,
        deny: { decision: 'block', reason: 'person: deny' },
        ask: { decision: 'block', reason: 'person: ask' },
        nudge: ctx('UserPromptSubmit', 'context: nudge'),
      },
    ],
    // After the action nothing blocks: what a deny/ask would say reaches the agent as context.
    [
      'PostToolUse',
      {
        allow: null,
        deny: ctx('PostToolUse', 'agent: deny'),
        ask: ctx('PostToolUse', 'agent: ask'),
        nudge: ctx('PostToolUse', 'context: nudge'),
      },
    ],
    [
      'PostToolUseFailure',
      {
        allow: null,
        deny: ctx('PostToolUseFailure', 'agent: deny'),
        ask: ctx('PostToolUseFailure', 'agent: ask'),
        nudge: ctx('PostToolUseFailure', 'context: nudge'),
      },
    ],
    ['Stop', { allow: null, deny: null, ask: null, nudge: null }],
    ['PreCompact', { allow: null, deny: null, ask: null, nudge: null }],
    [
      'SomethingNew',
      {
        allow: null,
        deny: { decision: 'block', reason: 'agent: deny', systemMessage: 'person: deny' },
        ask: { decision: 'block', reason: 'agent: ask', systemMessage: 'person: ask' },
        nudge: null,
      },
    ],
  ];
  for (const [event, replies] of table) {
    for (const decision of ['allow', 'deny', 'ask', 'nudge'] as const) {
      it(`${event} ${decision}`, () => {
        expect(adaptClaudeCodeOutput(outputOf(decision), raw(event))).toEqual({ stdout: replies[decision], exitCode: 0 });
      });
    }
  }

  it('never sends permissionDecision "allow" (it would skip Claude Code\'s permission prompt)', () => {
    for (const d of ['allow', 'nudge'] as const) {
      expect(JSON.stringify(adaptClaudeCodeOutput(outputOf(d), raw('PreToolUse')).stdout)).not.toContain('"allow"');
    }
  });

  it('answers an unreadable payload as a PreToolUse deny', () => {
    for (const r of [undefined, null, [], 'x', {}]) {
      expect(adaptClaudeCodeOutput(outputOf('deny'), r).stdout?.hookSpecificOutput).toEqual({
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'agent: deny',
      });
    }
  });
});

describe('Claude Code before/after and blocking', () => {
  it.each([
    ['PreToolUse', true],
    ['PreSkillShellCommand', true],
    ['PermissionRequest', true],
    ['UserPromptSubmit', true],
    ['SomethingNew', true],
    ['PostToolUse', false],
    ['PostToolUseFailure', false],
    ['Stop', false],
    ['SessionEnd', false],
  ])('%s before an action: %s', (event, before) => {
    expect(claudeCodeIsBeforeAction(raw(event))).toBe(before);
  });
  it('a failure blocks before an action and prints nothing after it', () => {
    const before = adaptClaudeCodeOutput(failureOutput('bad stdin', true), raw('PreToolUse'));
    expect(claudeCodeIsBlocking(before)).toBe(true);
    expect(before.stdout?.systemMessage).toContain('bad stdin');
    expect(adaptClaudeCodeOutput(failureOutput('bad stdin', false), raw('PostToolUse')).stdout).toBeNull();
  });
  it.each([
    [specific('PreToolUse', { permissionDecision: 'deny' }), true],
    [specific('PreToolUse', { permissionDecision: 'ask' }), true],
    [specific('PermissionRequest', { decision: { behavior: 'deny' } }), true],
    [{ decision: 'block' }, true],
    [specific('PreToolUse', { permissionDecision: 'allow' }), false],
    [ctx('PostToolUse', 'x'), false],
    [null, false],
  ])('%j blocks: %s', (stdout, blocks) => {
    expect(claudeCodeIsBlocking({ stdout: stdout as Record<string, unknown> | null, exitCode: 0 })).toBe(blocks);
  });
});
