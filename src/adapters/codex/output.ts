/**
 * PolicyOutput → Codex reply (exit 0, JSON on stdout, or nothing). Codex validates each reply
 * against a strict per-event schema and treats anything it does not support as a failed hook,
 * which lets the tool run: so only keys of that event's schema are sent, a deny always has a
 * non-empty reason, and an `ask` (unsupported: "PreToolUse hook returned unsupported
 * permissionDecision:ask") is sent as a deny that says how a person lets the call through.
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { contextReply, denial, eventShape, preToolUseReply, type ShapeSpec } from '../claude-shaped.ts';
import { agentMessage, contextText, personMessage } from '../reply.ts';
import { CODEX_EVENTS } from './types.ts';

type Shape =
  | 'tool' // PreToolUse: permissionDecision deny + reason, additionalContext
  | 'permission' // PermissionRequest: decision.behavior deny + message
  | 'prompt' // UserPromptSubmit: decision block + reason, additionalContext
  | 'context' // PostToolUse: additionalContext only, never blocks
  | 'none' // nothing Buckler uses (a block on Stop would keep the agent going)
  | 'unknown'; // newer than 0.169.0: only the universal legacy block

const SHAPES: ShapeSpec<Shape> = {
  events: CODEX_EVENTS,
  shapes: { PreToolUse: 'tool', PermissionRequest: 'permission', UserPromptSubmit: 'prompt', PostToolUse: 'context' },
  // Unreadable: answer as for the event Buckler gates before an action.
  unreadable: { event: 'PreToolUse', shape: 'tool' },
  unknown: 'unknown',
};

export function codexIsBeforeAction(raw: unknown): boolean {
  const { shape } = eventShape(raw, SHAPES);
  return shape !== 'context' && shape !== 'none';
}

function reply(output: PolicyOutput, event: string, shape: Shape): Record<string, unknown> | null {
  // The deny messages: an ask becomes a deny that says how to let it through.
  const denied = denial(output, 'Codex');
  switch (shape) {
    case 'context':
      return contextReply(event, contextText(output));
    case 'none':
      return null;
    case 'unknown':
      return denied === null ? null : { decision: 'block', reason: denied.agent, systemMessage: denied.person };
    case 'prompt':
      if (denied !== null) return { decision: 'block', reason: denied.person };
      return output.decision === 'nudge' ? contextReply(event, output.additional_context) : null;
    case 'permission':
      // Codex's approval prompt already is the ask; only a deny changes it.
      if (output.decision !== 'deny') return null;
      return {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: agentMessage(output) } },
        systemMessage: personMessage(output),
      };
    case 'tool':
      return preToolUseReply(output, 'Codex');
  }
}

export function adaptCodexOutput(output: PolicyOutput, raw: unknown): NativeReply {
  const { event, shape } = eventShape(raw, SHAPES);
  return { stdout: reply(output, event, shape), exitCode: 0 };
}

/**
 * Codex's reading of a reply: a PreToolUse deny with a non-empty reason, a legacy
 * `decision: "block"` with a reason, a PermissionRequest deny, or exit 2 (Codex needs the
 * reason on stderr then, which Buckler's last resort writes). An `ask` does not block in Codex.
 */
export function codexIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode === 2) return true;
  const o = reply.stdout;
  if (o === null) return false;
  if (o.decision === 'block') return typeof o.reason === 'string' && o.reason.trim() !== '';
  const specific = o.hookSpecificOutput as Record<string, unknown> | undefined;
  if (typeof specific !== 'object' || specific === null) return false;
  if (specific.permissionDecision === 'deny') {
    return typeof specific.permissionDecisionReason === 'string' && specific.permissionDecisionReason.trim() !== '';
  }
  const d = specific.decision as Record<string, unknown> | undefined;
  return typeof d === 'object' && d !== null && d.behavior === 'deny';
}
