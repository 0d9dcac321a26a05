/**
 * Buckler's hooks in Cursor's hooks.json, as data. Shell commands: beforeShellExecution and
 * preToolUse `Shell`; file reads: beforeReadFile (one hook per read, so Read is not also in the
 * preToolUse matcher); writes, deletes and searches: preToolUse `Write`, `Delete`, `Grep`; MCP
 * calls: beforeMCPExecution, the only event that names the server. Cursor tests a matcher as an
 * un-anchored RegExp, hence the anchors. The post-tool events stay on `Shell`: Buckler's
 * after-the-fact nudges are about shell commands (see docs/hooks.md).
 * Cursor's validator knows only type, command, prompt, model, matcher, timeout, loop_limit and
 * failClosed — the entries use no other key.
 */
import type { WantedHook } from '../installer.ts';

export const CURSOR_TIMEOUT_S = 10;

/** The preToolUse tools: the shell and the file tools other than Read (adapters/cursor/types.ts). */
const CURSOR_TOOLS_MATCHER = '^(Shell|Write|Delete|Grep)$';

export const CURSOR_HOOKS: readonly WantedHook[] = [
  { event: 'beforeShellExecution', timeout: CURSOR_TIMEOUT_S, blockOnFailure: true },
  { event: 'preToolUse', matcher: CURSOR_TOOLS_MATCHER, timeout: CURSOR_TIMEOUT_S, blockOnFailure: true },
  { event: 'beforeReadFile', timeout: CURSOR_TIMEOUT_S, blockOnFailure: true },
  { event: 'beforeMCPExecution', timeout: CURSOR_TIMEOUT_S, blockOnFailure: true },
  { event: 'postToolUse', matcher: 'Shell', timeout: CURSOR_TIMEOUT_S, blockOnFailure: false },
  { event: 'postToolUseFailure', matcher: 'Shell', timeout: CURSOR_TIMEOUT_S, blockOnFailure: false },
];

/** The hooks.json entry for one wanted hook, keys in Cursor's documented order. */
export function cursorEntry(hook: WantedHook, command: string): Record<string, unknown> {
  return {
    command,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    timeout: hook.timeout,
    ...(hook.blockOnFailure ? { failClosed: true } : {}),
  };
}
