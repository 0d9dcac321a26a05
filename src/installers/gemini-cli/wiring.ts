/**
 * Buckler's hooks in Gemini CLI's settings.json, as data (matcher groups under `hooks`).
 * Matchers are un-anchored regular expressions tested against the tool name (`""`/`*` = all):
 * BeforeTool covers the shell (`run_shell_command`), the file tools that read or change file
 * contents (`read_file`, `read_many_files`, `write_file`, `replace`) and MCP tools
 * (`mcp_<server>_<tool>`); AfterTool only the shell, as for Claude Code. `timeout` is in
 * **milliseconds** in Gemini (default 60 000). Gemini blocks on a hook that crashes (exit 2 or
 * more) but not on a timeout or exit 1, so `blockOnFailure` is false (not assured).
 */
import type { WantedHook } from '../installer.ts';

const GEMINI_TIMEOUT_S = 10;
const GEMINI_PRE_MATCHER = '^(run_shell_command|read_file|read_many_files|write_file|replace|mcp_.+)$';
const GEMINI_POST_MATCHER = '^run_shell_command$';
/** The hook's `name`: Gemini de-duplicates by `name:command` and `hooksConfig.disabled` lists names. */
export const GEMINI_HOOK_NAME = 'buckler';
/** Keys of `hooks` that are settings, not events (`HOOKS_CONFIG_FIELDS`). */
export const GEMINI_HOOKS_SETTINGS = ['enabled', 'disabled', 'notifications'] as const;

export const GEMINI_HOOKS: readonly WantedHook[] = [
  { event: 'BeforeTool', matcher: GEMINI_PRE_MATCHER, timeout: GEMINI_TIMEOUT_S, blockOnFailure: false },
  { event: 'AfterTool', matcher: GEMINI_POST_MATCHER, timeout: GEMINI_TIMEOUT_S, blockOnFailure: false },
];

export function geminiHandler(hook: WantedHook, command: string): Record<string, unknown> {
  return { type: 'command', name: GEMINI_HOOK_NAME, command, timeout: hook.timeout * 1000 };
}
