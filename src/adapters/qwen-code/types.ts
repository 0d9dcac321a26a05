/**
 * Qwen Code's hook protocol, declared locally. From `@qwen-code/qwen-code@0.24.4` (2026-09-22):
 * its bundle (`chunks/chunk-DPEB6S2R.js`: `firePreToolUseEvent`, `firePreToolUseHook`,
 * `LEGACY_MILLISECOND_TIMEOUT_THRESHOLD`, `isBlockingError = exitCode2 === 2`) and payloads
 * captured from a real run on 2026-12-01; 0.15.10 as documented in docs/adapters/qwen-code.md.
 * See docs/adapters/qwen-code.md.
 */

/** The events of 0.15.10 (`HookEventName2["PreToolUse"]`), all still fired by 0.24.4. */
export const QWEN_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SessionStart',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'Notification',
] as const;

/**
 * The shell tool. The scheduler passes the tool's registered name (`ToolNames.SHELL =
 * "run_shell_command"`) as `tool_name`; the docs call it `Bash` (Claude's name), which the
 * matcher accepts only as an exact alias. Both are read as the shell.
 */
export const QWEN_SHELL_TOOLS = ['run_shell_command', 'Bash'] as const;
/** File tools (`ToolNames`, with the legacy `replace` for `edit`) → their path argument and access. */
export const QWEN_FILE_TOOLS: ReadonlyMap<string, 'read' | 'write'> = new Map([
  ['write_file', 'write'],
  ['edit', 'write'],
  ['replace', 'write'],
  ['read_file', 'read'],
]);

/* MCP tools have Claude-style names (`mcp__<server>__<tool>`): ../claude-shaped.ts reads them. */

/*
 * Qwen reads the reply with `getPermissionDecision()`: `hookSpecificOutput.permissionDecision`
 * first, else a top-level `decision` (`allow|approve|deny|block|ask`).
 */
