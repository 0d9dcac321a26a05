/**
 * PolicyOutput → Cursor reply, per event. Allow is always `{}` ("no opinion"): an explicit
 * `permission: "allow"` would skip Cursor's own approval prompt, so Buckler never sends it.
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventNameOf } from '../payload.ts';
import { agentMessage, capText, contextText, personMessage } from '../reply.ts';
import { CURSOR_CONTEXT_LIMIT, CURSOR_EVENTS, type CursorReply } from './types.ts';

/** How an event can answer: which keys Cursor honours on it (docs/adapters/cursor.md). */
type Shape =
  | 'permission' // permission allow|deny|ask, user_message, agent_message
  | 'permission+context' // the same plus additional_context (preToolUse)
  | 'file' // permission allow|deny only, user_message only
  | 'subagent' // permission allow|deny|ask, user_message, additional_context
  | 'prompt' // continue, user_message, additional_context
  | 'context' // additional_context only, never blocks
  | 'none'; // nothing honoured

const SHAPES: Readonly<Partial<Record<string, Shape>>> = {
  beforeShellExecution: 'permission',
  beforeMCPExecution: 'permission',
  preToolUse: 'permission+context',
  beforeReadFile: 'file',
  beforeTabFileRead: 'file',
  subagentStart: 'subagent',
  beforeSubmitPrompt: 'prompt',
  postToolUse: 'context',
  postToolUseFailure: 'context',
  sessionStart: 'context',
};

/** The reply shape for a payload's event; an unreadable or unknown event gets the permission shape. */
function shapeOf(raw: unknown): Shape {
  const event = eventNameOf(raw, 'hook_event_name');
  if (event === undefined || !(CURSOR_EVENTS as readonly string[]).includes(event)) return 'permission';
  return SHAPES[event] ?? 'none';
}

export function cursorIsBeforeAction(raw: unknown): boolean {
  const shape = shapeOf(raw);
  return shape !== 'context' && shape !== 'none';
}

function context(text: string | null): CursorReply {
  return text === null ? {} : { additional_context: capText(text, CURSOR_CONTEXT_LIMIT) };
}

function reply(output: PolicyOutput, shape: Shape): CursorReply {
  const { decision } = output;
  const blocks = decision === 'deny' || decision === 'ask';
  switch (shape) {
    case 'context':
      return context(contextText(output));
    case 'none':
      return {};
    case 'prompt':
      // No ask on a prompt: asking the person who just typed it is a block with a reason.
      if (blocks) return { continue: false, user_message: personMessage(output) };
      return decision === 'nudge' ? context(output.additional_context) : {};
    case 'file':
      // Cursor offers no ask here; an ask must not turn into a silent pass.
      return blocks ? { permission: 'deny', user_message: personMessage(output) } : {};
    case 'subagent':
      if (blocks) return { permission: decision, user_message: personMessage(output) };
      return decision === 'nudge' ? context(output.additional_context) : {};
    case 'permission':
    case 'permission+context':
      if (blocks) return { permission: decision, user_message: personMessage(output), agent_message: agentMessage(output) };
      return decision === 'nudge' && shape === 'permission+context' ? context(output.additional_context) : {};
  }
}

export function adaptCursorOutput(output: PolicyOutput, raw: unknown): NativeReply {
  return { stdout: reply(output, shapeOf(raw)) as Record<string, unknown>, exitCode: 0 };
}

/** A Cursor reply blocks when it denies or asks, or stops a prompt (`continue: false`). */
export function cursorIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode === 2) return true;
  const o = reply.stdout;
  return o !== null && (o.permission === 'deny' || o.permission === 'ask' || o.continue === false);
}
