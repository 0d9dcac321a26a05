/**
 * Buckler's hooks in Qwen Code's settings.json, as data (matcher groups under `hooks`, Claude
 * Code's shape). Qwen passes the tool's registered name as `tool_name` (`run_shell_command`,
 * `write_file`, `edit`, `read_file`; `Bash` is only an exact alias), and a matcher that starts
 * with `^` is a regular expression tested against that name only, so the pattern lists both
 * shell names. PostToolUse only the shell, as for Claude Code.
 *
 * Timeout unit: Qwen Code read `timeout` as milliseconds (the Gemini CLI runner it forked),
 * and later releases read it as seconds **except** that a value of 1000 or more keeps its
 * millisecond meaning (`LEGACY_MILLISECOND_TIMEOUT_THRESHOLD`). Buckler writes 10 000, which is
 * 10 s in both. A crash (exit other than 2) or a timeout lets the tool run, so
 * `blockOnFailure` is false.
 */
import type { WantedHook } from '../installer.ts';

const QWEN_TIMEOUT_S = 10;
const QWEN_PRE_MATCHER = '^(run_shell_command|Bash|write_file|edit|replace|read_file|mcp__.+)$';
const QWEN_POST_MATCHER = '^(run_shell_command|Bash)$';
/** The hook's `name` (Qwen keys hooks by `name:command`). */
const QWEN_HOOK_NAME = 'buckler';

export const QWEN_HOOKS: readonly WantedHook[] = [
  { event: 'PreToolUse', matcher: QWEN_PRE_MATCHER, timeout: QWEN_TIMEOUT_S, blockOnFailure: false },
  { event: 'PostToolUse', matcher: QWEN_POST_MATCHER, timeout: QWEN_TIMEOUT_S, blockOnFailure: false },
];

export function qwenHandler(hook: WantedHook, command: string): Record<string, unknown> {
  return { type: 'command', name: QWEN_HOOK_NAME, command, timeout: hook.timeout * 1000 };
}
