/**
 * PolicyOutput → Factory Droid reply (exit 0, JSON on stdout, or nothing). A deny is
 * `hookSpecificOutput.permissionDecision: "deny"` with the reason for the agent, plus a
 * top-level `systemMessage` for the person. Droid 0.225 only logs an `ask` ("[Hooks] Hook
 * requested user confirmation") and runs the tool, so an ask is sent as a deny that says how a
 * person lets the call through. Buckler never sends `continue: false` (ends the session) or
 * exits 3 (aborts the agent): only the one tool call is refused.
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventNameOf } from '../payload.ts';
import { agentMessage, askAsDeny, contextText, personMessage } from '../reply.ts';
import { DROID_EVENTS } from './types.ts';

type Shape = 'tool' | 'context' | 'none';

const SHAPES: Readonly<Partial<Record<string, Shape>>> = {
  PreToolUse: 'tool',
  PostToolUse: 'context',
};

function eventOf(raw: unknown): { event: string; shape: Shape } {
  const event = eventNameOf(raw, 'hook_event_name');
  // Unreadable, or newer than 0.225: answer as for the event Buckler gates before an action.
  if (event === undefined || !(DROID_EVENTS as readonly string[]).includes(event)) return { event: 'PreToolUse', shape: 'tool' };
  return { event, shape: SHAPES[event] ?? 'none' };
}

export function droidIsBeforeAction(raw: unknown): boolean {
  return eventOf(raw).shape === 'tool';
}

function denial(output: PolicyOutput): { person: string; agent: string } | null {
  if (output.decision === 'ask') return askAsDeny(output, 'Factory Droid');
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

export function adaptDroidOutput(output: PolicyOutput, raw: unknown): NativeReply {
  const { event, shape } = eventOf(raw);
  return { stdout: reply(output, event, shape), exitCode: 0 };
}

/**
 * Droid's reading of a reply (`[Tools] Checking for exit code 2`): `permissionDecision: "deny"`
 * refuses the call, as does exit 2 (stderr = reason). `ask` is only logged; `continue: false`
 * and exit 3 stop more than the call, and Buckler never sends them.
 */
export function droidIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode === 2) return true;
  const specific = reply.stdout?.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific === 'object' && specific !== null && specific.permissionDecision === 'deny';
}
