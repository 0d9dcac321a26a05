/**
 * Buckler's hooks in Cursor's hooks.json, as data. The `Shell` matcher on the tool events keeps
 * Buckler off every file read and edit: its rules are about shell commands (see docs/hooks.md).
 * Cursor's validator knows only type, command, prompt, model, matcher, timeout, loop_limit and
 * failClosed — the entries use no other key.
 */
import type { WantedHook } from '../installer.ts';

export const CURSOR_TIMEOUT_S = 10;

export const CURSOR_HOOKS: readonly WantedHook[] = [
  { event: 'beforeShellExecution', timeout: CURSOR_TIMEOUT_S, blockOnFailure: true },
  { event: 'preToolUse', matcher: 'Shell', timeout: CURSOR_TIMEOUT_S, blockOnFailure: true },
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
