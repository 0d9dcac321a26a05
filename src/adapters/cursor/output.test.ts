import { describe, expect, it } from 'vitest';
import type { Decision } from '../../core/contract.ts';
import { failureOutput, TRUNCATION_MARK } from '../reply.ts';
import { outputOf } from '../testing.ts';
import { adaptCursorOutput, cursorIsBeforeAction, cursorIsBlocking } from './output.ts';
import { CURSOR_CONTEXT_LIMIT } from './types.ts';

const raw = (hook_event_name: string) => ({ hook_event_name });
const DENY = { permission: 'deny', user_message: 'person: deny', agent_message: 'agent: deny' };
const ASK = { permission: 'ask', user_message: 'person: ask', agent_message: 'agent: ask' };
const CTX = { additional_context: 'context: nudge' };

describe('Cursor replies, per event and decision', () => {
  const table: [string, Record<Decision, object>][] = [
    ['beforeShellExecution', { allow: {}, deny: DENY, ask: ASK, nudge: {} }],
    ['preToolUse', { allow: {}, deny: DENY, ask: ASK, nudge: CTX }],
    ['beforeMCPExecution', { allow: {}, deny: DENY, ask: ASK, nudge: {} }],
    [
      'beforeReadFile',
      {
        allow: {},
        deny: { permission: 'deny', user_message: 'person: deny' },
        ask: { permission: 'deny', user_message: 'person: ask' },
        nudge: {},
      },
    ],
    [
      'subagentStart',
      {
        allow: {},
        deny: { permission: 'deny', user_message: 'person: deny' },
        ask: { permission: 'ask', user_message: 'person: ask' },
        nudge: CTX,
      },
    ],
    [
      'beforeSubmitPrompt',
      {
        allow: {},
        deny: { continue: false, user_message: 'person: deny' },
        ask: { continue: false, user_message: 'person: ask' },
        nudge: CTX,
      },
    ],
    // After the action nothing blocks: what a deny/ask would say reaches the agent as context.
    ['postToolUse', { allow: {}, deny: { additional_context: 'agent: deny' }, ask: { additional_context: 'agent: ask' }, nudge: CTX }],
    ['postToolUseFailure', { allow: {}, deny: { additional_context: 'agent: deny' }, ask: { additional_context: 'agent: ask' }, nudge: CTX }],
    ['stop', { allow: {}, deny: {}, ask: {}, nudge: {} }],
    ['afterShellExecution', { allow: {}, deny: {}, ask: {}, nudge: {} }],
    // An event newer than 1.0.32: Cursor ignores keys it does not know, so deny in the permission shape.
    ['beforeSomethingNew', { allow: {}, deny: DENY, ask: ASK, nudge: {} }],
  ];
  for (const [event, replies] of table) {
    for (const decision of ['allow', 'deny', 'ask', 'nudge'] as const) {
      it(`${event} ${decision}`, () => {
        const reply = adaptCursorOutput(outputOf(decision), raw(event));
        expect(reply).toEqual({ stdout: replies[decision], exitCode: 0 });
      });
    }
  }

  it('never sends permission "allow" (it would skip Cursor\'s own approval prompt)', () => {
    for (const event of ['beforeShellExecution', 'preToolUse', 'beforeMCPExecution', 'beforeReadFile']) {
      for (const d of ['allow', 'nudge'] as const) {
        expect(adaptCursorOutput(outputOf(d), raw(event)).stdout).not.toHaveProperty('permission');
      }
    }
  });

  it('keeps deny messages non-empty when the decision carries none', () => {
    const reply = adaptCursorOutput(outputOf('deny', { user_message: null, agent_message: '' }), raw('preToolUse'));
    expect(reply.stdout).toMatchObject({ permission: 'deny' });
    expect(String(reply.stdout?.user_message)).toContain('test/rule');
    expect(String(reply.stdout?.agent_message)).toContain('test/rule');
  });

  it('answers an unreadable payload in the permission shape', () => {
    for (const r of [undefined, null, [], 'x', {}]) {
      expect(adaptCursorOutput(outputOf('deny'), r).stdout).toEqual(DENY);
    }
  });
});

describe('Cursor additional_context is capped at 10,000 characters', () => {
  it.each([
    ['ascii', 'a'.repeat(20_000)],
    ['a surrogate pair across the cut', 'a'.repeat(CURSOR_CONTEXT_LIMIT - TRUNCATION_MARK.length - 1) + '😀'.repeat(100)],
  ])('%s', (_n, text) => {
    const reply = adaptCursorOutput(outputOf('nudge', { additional_context: text }), raw('preToolUse'));
    const ctx = String(reply.stdout?.additional_context);
    expect(ctx.length).toBeLessThanOrEqual(CURSOR_CONTEXT_LIMIT);
    expect(ctx.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(ctx).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(Buffer.from(ctx, 'utf8').toString('utf8')).toBe(ctx);
  });
  it('leaves text at the limit alone', () => {
    const text = 'b'.repeat(CURSOR_CONTEXT_LIMIT);
    expect(adaptCursorOutput(outputOf('nudge', { additional_context: text }), raw('postToolUse')).stdout).toEqual({
      additional_context: text,
    });
  });
});

describe('Cursor before/after and blocking', () => {
  it.each([
    ['beforeShellExecution', true],
    ['preToolUse', true],
    ['beforeMCPExecution', true],
    ['beforeReadFile', true],
    ['beforeSubmitPrompt', true],
    ['subagentStart', true],
    ['beforeSomethingNew', true],
    ['postToolUse', false],
    ['postToolUseFailure', false],
    ['afterShellExecution', false],
    ['stop', false],
    ['sessionStart', false],
  ])('%s before an action: %s', (event, before) => {
    expect(cursorIsBeforeAction(raw(event))).toBe(before);
  });
  it('an unreadable payload counts as before an action', () => {
    for (const r of [undefined, null, [], { hook_event_name: 3 }]) expect(cursorIsBeforeAction(r)).toBe(true);
  });
  it('a failure blocks before an action and is "no opinion" after it', () => {
    const before = adaptCursorOutput(failureOutput('bad stdin', true), raw('beforeShellExecution'));
    expect(cursorIsBlocking(before)).toBe(true);
    expect(before.stdout?.user_message).toContain('bad stdin');
    expect(adaptCursorOutput(failureOutput('bad stdin', false), raw('postToolUse')).stdout).toEqual({});
  });
  it.each([
    [{ permission: 'deny' }, true],
    [{ permission: 'ask' }, true],
    [{ continue: false }, true],
    [{ permission: 'allow' }, false],
    [{ additional_context: 'x' }, false],
    [{}, false],
  ])('%j blocks: %s', (stdout, blocks) => {
    expect(cursorIsBlocking({ stdout, exitCode: 0 })).toBe(blocks);
  });
});
