/**
 * PolicyOutput → Qwen Code reply (exit 0, JSON on stdout, or nothing). A deny is
 * `hookSpecificOutput.permissionDecision: "deny"` with the reason for the agent, plus a
 * top-level `systemMessage` for the person. Qwen reads an `ask`, but a headless run (`-p`) has
 * nobody to answer it, so an ask is sent as a deny that says how a person lets the call
 * through. Buckler never sends `continue: false` (which stops the agent): only the one tool
 * call is refused.
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventNameOf } from '../payload.ts';
import { agentMessage, askAsDeny, contextText, personMessage } from '../reply.ts';
import { QWEN_EVENTS } from './types.ts';

type Shape = 'tool' | 'context' | 'none';

const SHAPES: Readonly<Partial<Record<string, Shape>>> = {
  PreToolUse: 'tool',
  PostToolUse: 'context',
  PostToolUseFailure: 'context',
};

function eventOf(raw: unknown): { event: string; shape: Shape } {
  const event = eventNameOf(raw, 'hook_event_name');
  // Unreadable, or newer than 0.15: answer as for the event Buckler gates before an action.
  if (event === undefined || !(QWEN_EVENTS as readonly string[]).includes(event)) return { event: 'PreToolUse', shape: 'tool' };
  return { event, shape: SHAPES[event] ?? 'none' };
}

export function qwenIsBeforeAction(raw: unknown): boolean {
  return eventOf(raw).shape === 'tool';
}

function denial(output: PolicyOutput): { person: string; agent: string } | null {
  if (output.decision === 'ask') return askAsDeny(output, 'Qwen Code');
  if (output.decision === 'deny') return { person: personMessage(output), agent: agentMessage(output) };
  return null;
}

function reply(output: PolicyOutput, event: string, shape: Shape): Record<string, unknown> | null {
  switch (shape) {
    case 'none':
      return null;
    case 'context': {
      const text = contextText(output);
      return text === null ? null : { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
    }
    case 'tool': {
      const denied = denial(output);
      if (denied !== null) {
        return {
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: denied.agent },
          systemMessage: denied.person,
        };
      }
      return output.decision === 'nudge' && output.additional_context
        ? { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: output.additional_context } }
        : null;
    }
  }
}

export function adaptQwenOutput(output: PolicyOutput, raw: unknown): NativeReply {
  const { event, shape } = eventOf(raw);
  return { stdout: reply(output, event, shape), exitCode: 0 };
}

/**
 * Qwen Code's reading of a reply (`getPermissionDecision()`, `isBlockingError = exitCode === 2`):
 * `hookSpecificOutput.permissionDecision: "deny"`, else a top-level `decision` of `deny` or
 * `block`, refuses the call, as does exit 2 (stderr = reason). Any other exit is non-blocking.
 */
export function qwenIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode === 2) return true;
  const o = reply.stdout;
  if (o === null) return false;
  const specific = o.hookSpecificOutput as Record<string, unknown> | undefined;
  if (typeof specific === 'object' && specific !== null && typeof specific.permissionDecision === 'string') {
    return specific.permissionDecision === 'deny';
  }
  return o.decision === 'deny' || o.decision === 'block';
}
