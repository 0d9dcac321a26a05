/**
 * PolicyOutput → Qwen Code reply (exit 0, JSON on stdout, or nothing). A deny is
 * `hookSpecificOutput.permissionDecision: "deny"` with the reason for the agent, plus a
 * top-level `systemMessage` for the person. Qwen reads an `ask`, but a headless run (`-p`) has
 * nobody to answer it, so an ask is sent as a deny that says how a person lets the call
 * through. Buckler never sends `continue: false` (which stops the agent): only the one tool
 * call is refused. An unreadable event, or one newer than 0.24, is answered as the PreToolUse
 * Buckler gates before an action.
 */
import type { NativeReply } from '../adapter.ts';
import { toolReplies } from '../claude-shaped.ts';
import { QWEN_EVENTS } from './types.ts';

const replies = toolReplies('Qwen Code', QWEN_EVENTS, { PreToolUse: 'tool', PostToolUse: 'context', PostToolUseFailure: 'context' });

export const adaptQwenOutput = replies.adaptOutput;
export const qwenIsBeforeAction = replies.isBeforeAction;

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
