/**
 * PolicyOutput → Copilot CLI native reply (exit 0, JSON on stdout, or nothing). A deny is
 * `{"permissionDecision":"deny","permissionDecisionReason":A}` for the one tool call ("Denied
 * by preToolUse hook: A"). An ask is Copilot's own: `permissionDecision: "ask"` prompts the
 * person, and where no one can answer (`copilot -p`) Copilot denies ("unable to ask user for
 * confirmation"), so it fails closed and is sent as it is. A Claude-shaped reply would be
 * ignored by a native hook (the tool runs), so only native keys are sent.
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventNameOf } from '../payload.ts';
import { agentMessage, contextText, personMessage } from '../reply.ts';
import { COPILOT_EVENT_FIELD, COPILOT_EVENTS } from './types.ts';

type Shape =
  | 'tool' // preToolUse: permissionDecision deny|ask + reason, additionalContext
  | 'prompt' // userPromptSubmitted: decision block + reason, additionalContext
  | 'context' // postToolUse, postToolUseFailure: additionalContext only
  | 'none'; // nothing Buckler uses

const SHAPES: Readonly<Partial<Record<string, Shape>>> = {
  preToolUse: 'tool',
  userPromptSubmitted: 'prompt',
  postToolUse: 'context',
  postToolUseFailure: 'context',
};

function shapeOf(raw: unknown): Shape {
  const event = eventNameOf(raw, COPILOT_EVENT_FIELD);
  // Unreadable, or newer than 1.0.102: answer as preToolUse (fail closed).
  if (event === undefined || !(COPILOT_EVENTS as readonly string[]).includes(event)) return 'tool';
  return SHAPES[event] ?? 'none';
}

export function copilotIsBeforeAction(raw: unknown): boolean {
  const shape = shapeOf(raw);
  return shape === 'tool' || shape === 'prompt';
}

function reply(output: PolicyOutput, shape: Shape): Record<string, unknown> | null {
  const { decision } = output;
  switch (shape) {
    case 'context': {
      const text = contextText(output);
      return text === null ? null : { additionalContext: text };
    }
    case 'none':
      return null;
    case 'prompt':
      if (decision === 'deny' || decision === 'ask') return { decision: 'block', reason: personMessage(output) };
      return decision === 'nudge' && output.additional_context ? { additionalContext: output.additional_context } : null;
    case 'tool':
      if (decision === 'deny') return { permissionDecision: 'deny', permissionDecisionReason: agentMessage(output) };
      if (decision === 'ask') return { permissionDecision: 'ask', permissionDecisionReason: personMessage(output) };
      return decision === 'nudge' && output.additional_context ? { additionalContext: output.additional_context } : null;
  }
}

export function adaptCopilotOutput(output: PolicyOutput, raw: unknown): NativeReply {
  return { stdout: reply(output, shapeOf(raw)), exitCode: 0 };
}

/**
 * Copilot's reading of a reply to a native hook: `permissionDecision` deny (or ask, which
 * holds the call for the person and denies where no one can answer), `decision: "block"` on a
 * prompt, or any non-zero exit on preToolUse (exit 2: denied with a fixed text; exit 1 or a
 * crash: "hook errored", denied).
 */
export function copilotIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode !== 0) return true;
  const o = reply.stdout;
  if (o === null) return false;
  return o.permissionDecision === 'deny' || o.permissionDecision === 'ask' || o.decision === 'block';
}
