/**
 * PolicyOutput → Factory Droid reply (exit 0, JSON on stdout, or nothing). A deny is
 * `hookSpecificOutput.permissionDecision: "deny"` with the reason for the agent, plus a
 * top-level `systemMessage` for the person. Droid 0.225 only logs an `ask` ("[Hooks] Hook
 * requested user confirmation") and runs the tool, so an ask is sent as a deny that says how a
 * person lets the call through. Buckler never sends `continue: false` (ends the session) or
 * exits 3 (aborts the agent): only the one tool call is refused. An unreadable event, or one
 * newer than 0.225, is answered as the PreToolUse Buckler gates before an action.
 */
import type { NativeReply } from '../adapter.ts';
import { deniesPermission, toolReplies } from '../claude-shaped.ts';
import { DROID_EVENTS } from './types.ts';

const replies = toolReplies('Factory Droid', DROID_EVENTS, { PreToolUse: 'tool', PostToolUse: 'context' });

export const adaptDroidOutput = replies.adaptOutput;
export const droidIsBeforeAction = replies.isBeforeAction;

/**
 * Droid's reading of a reply (`[Tools] Checking for exit code 2`): `permissionDecision: "deny"`
 * refuses the call, as does exit 2 (stderr = reason). `ask` is only logged; `continue: false`
 * and exit 3 stop more than the call, and Buckler never sends them.
 */
export function droidIsBlocking(reply: NativeReply): boolean {
  return reply.exitCode === 2 || deniesPermission(reply);
}
