/**
 * PolicyOutput → Claude Code reply, per event (exit 0, JSON on stdout). Allow prints nothing:
 * an explicit `permissionDecision: "allow"` would skip Claude Code's own permission prompt.
 * Only keys Claude Code accepts for the event are emitted (it validates hookSpecificOutput).
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventShape, type ShapeSpec } from '../claude-shaped.ts';
import { agentMessage, contextText, personMessage } from '../reply.ts';
import { CLAUDE_CODE_EVENTS, type ClaudeCodeReply } from './types.ts';

type Shape =
  | 'tool' // PreToolUse: permissionDecision deny|ask + reason, additionalContext
  | 'skill' // PreSkillShellCommand: permissionDecision deny|ask + reason
  | 'permission' // PermissionRequest: decision.behavior deny
  | 'prompt' // UserPromptSubmit: decision block + reason, additionalContext
  | 'context' // additionalContext only, never blocks
  | 'none' // nothing Buckler uses
  | 'unknown'; // an event newer than 2.1.332: only the universal keys

const SHAPES: ShapeSpec<Shape> = {
  events: CLAUDE_CODE_EVENTS,
  // Unreadable: answer as for the event Buckler gates before an action.
  unreadable: { event: 'PreToolUse', shape: 'tool' },
  unknown: 'unknown',
  shapes: {
    PreToolUse: 'tool',
    PreSkillShellCommand: 'skill',
    PermissionRequest: 'permission',
    UserPromptSubmit: 'prompt',
    PostToolUse: 'context',
    PostToolUseFailure: 'context',
    PostToolBatch: 'context',
    SessionStart: 'context',
    SubagentStart: 'context',
    Setup: 'context',
    Notification: 'context',
  },
};

export function claudeCodeIsBeforeAction(raw: unknown): boolean {
  const { shape } = eventShape(raw, SHAPES);
  return shape !== 'context' && shape !== 'none';
}

function context(event: string, text: string | null): ClaudeCodeReply | null {
  return text === null ? null : { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

function reply(output: PolicyOutput, event: string, shape: Shape): ClaudeCodeReply | null {
  const { decision } = output;
  switch (shape) {
    case 'context':
      return context(event, contextText(output));
    case 'none':
      return null;
    case 'unknown':
      if (decision === 'deny' || decision === 'ask') {
        return { decision: 'block', reason: agentMessage(output), systemMessage: personMessage(output) };
      }
      return null;
    case 'prompt':
      // No ask on a prompt: asking the person who just typed it is a block with a reason.
      if (decision === 'deny' || decision === 'ask') return { decision: 'block', reason: personMessage(output) };
      return decision === 'nudge' ? context(event, output.additional_context) : null;
    case 'permission':
      // The permission dialog is Claude Code's own ask; only a deny changes it.
      if (decision !== 'deny') return null;
      return {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: agentMessage(output) } },
        systemMessage: personMessage(output),
      };
    case 'tool':
    case 'skill': {
      const hookEventName = shape === 'tool' ? 'PreToolUse' : 'PreSkillShellCommand';
      if (decision === 'deny') {
        return {
          hookSpecificOutput: { hookEventName, permissionDecision: 'deny', permissionDecisionReason: agentMessage(output) },
          systemMessage: personMessage(output),
        };
      }
      if (decision === 'ask') {
        return { hookSpecificOutput: { hookEventName, permissionDecision: 'ask', permissionDecisionReason: personMessage(output) } };
      }
      return decision === 'nudge' && shape === 'tool' ? context(hookEventName, output.additional_context) : null;
    }
  }
}

export function adaptClaudeCodeOutput(output: PolicyOutput, raw: unknown): NativeReply {
  const { event, shape } = eventShape(raw, SHAPES);
  return { stdout: reply(output, event, shape) as Record<string, unknown> | null, exitCode: 0 };
}

/** A Claude Code reply blocks when it denies or asks, or blocks the event (`decision: "block"`). */
export function claudeCodeIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode === 2) return true;
  const o = reply.stdout;
  if (o === null) return false;
  if (o.decision === 'block' || o.continue === false) return true;
  const specific = o.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific === undefined || specific === null) return false;
  if (specific.permissionDecision === 'deny' || specific.permissionDecision === 'ask') return true;
  const d = specific.decision as Record<string, unknown> | undefined;
  return typeof d === 'object' && d !== null && d.behavior === 'deny';
}
