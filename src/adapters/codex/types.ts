/**
 * Codex CLI's hook protocol, declared locally. From `@openai/codex@0.169.0` (2026-11-13): the
 * JSON Schemas embedded in the binary (`pre-tool-use.command.input`, `…output`,
 * `post-tool-use.command.…`) and e2e runs;
 * tool names from openai/codex `core/src/tools/hook_names.rs`. See docs/adapters/codex.md.
 */

/** The event names 0.169.0 knows (hooks.json keys and `hook_event_name`). */
export const CODEX_EVENTS = [
  'PreModelRequest',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
  'Interrupt',
  'UserPromptSubmit',
  'Stop',
] as const;

/** `HookToolName::bash()`: every shell-like tool (`exec_command`, `shell_command`, …). */
export const CODEX_SHELL_TOOL = 'Bash';
/** `HookToolName::apply_patch()`: file edits; `tool_input.command` is the patch text. */
export const CODEX_PATCH_TOOL = 'apply_patch';

/* MCP tools are named `mcp__<server>__<tool>`: ../claude-shaped.ts reads them. */

/*
 * The reply (`pre-tool-use.command.output`) is checked strictly: an unknown key makes the hook
 * "failed", i.e. open. Only `hookSpecificOutput.permissionDecision: deny` with a non-empty
 * reason is honoured without `updatedInput` (`ask` is "unsupported"); output.ts sends no other key.
 */
