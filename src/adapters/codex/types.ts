/**
 * Codex CLI's hook protocol, declared locally. From `@openai/codex@0.169.0` (2026-11-13): the
 * JSON Schemas embedded in the binary (`pre-tool-use.command.input`, `…output`,
 * `post-tool-use.command.…`), the reference notes harness-protocols-v2.md §2 and e2e runs;
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
/** Matcher aliases Codex gives `apply_patch` (never sent as `tool_name`). */
export const CODEX_PATCH_ALIASES = ['Write', 'Edit'] as const;
/* MCP tools are named `mcp__<server>__<tool>`: ../claude-shaped.ts reads them. */

/** `pre-tool-use.command.input` (additionalProperties: false). */
export interface CodexPreToolUseInput {
  session_id: string;
  turn_id: string;
  transcript_path: string | null;
  cwd: string;
  hook_event_name: 'PreToolUse';
  model: string;
  permission_mode: 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions';
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  agent_id?: string;
  agent_type?: string;
}

/** `post-tool-use.command.input`: as PreToolUse plus `tool_response` (the output, a string for Bash). */
export interface CodexPostToolUseInput extends Omit<CodexPreToolUseInput, 'hook_event_name'> {
  hook_event_name: 'PostToolUse';
  tool_response: unknown;
}

/** `pre-tool-use.command.output` (strict: an unknown key makes the hook "failed", i.e. open). */
export interface CodexPreToolUseReply {
  systemMessage?: string;
  decision?: 'block';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: 'PreToolUse';
    /** Only `deny` (with a non-empty reason) is honoured without `updatedInput`; `ask` is "unsupported". */
    permissionDecision?: 'deny';
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
}

/** `post-tool-use.command.output`. */
export interface CodexPostToolUseReply {
  hookSpecificOutput: { hookEventName: 'PostToolUse'; additionalContext: string };
}
