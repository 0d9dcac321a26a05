/**
 * Buckler's hooks in Factory Droid's settings.json, as data (Claude Code's matcher-group shape
 * under `hooks`). Droid 0.225 tests a matcher against `tool_name`: empty or `*` matches all, an
 * exact name matches, anything else is an un-anchored regular expression (`function cF(e,s,r={})`).
 * PreToolUse covers the shell (`Execute`), the file tools (`Create`, `Edit`, `MultiEdit`, `Read`),
 * `ApplyPatch` and MCP tools; PostToolUse only the shell. `timeout` is in **seconds** (default
 * 60; on expiry Droid kills the hook and lets the tool run), so `blockOnFailure` is false.
 */
import type { WantedHook } from '../installer.ts';

const DROID_TIMEOUT_S = 10;
const DROID_PRE_MATCHER = '^(Execute|Create|Edit|MultiEdit|Read|ApplyPatch|mcp__.+)$';
const DROID_POST_MATCHER = '^Execute$';
/** Keys of `hooks` that are settings, not events (`getHooksDisabled()` reads `hooks.hooksDisabled`). */
export const DROID_HOOKS_SETTINGS = ['hooksDisabled'] as const;

export const DROID_HOOKS: readonly WantedHook[] = [
  { event: 'PreToolUse', matcher: DROID_PRE_MATCHER, timeout: DROID_TIMEOUT_S, blockOnFailure: false },
  { event: 'PostToolUse', matcher: DROID_POST_MATCHER, timeout: DROID_TIMEOUT_S, blockOnFailure: false },
];

/** The command hook (`addHook(e,i,s,r,a,d)`: `{type: "command", command, timeout?}`). */
export function droidHandler(hook: WantedHook, command: string): Record<string, unknown> {
  return { type: 'command', command, timeout: hook.timeout };
}
