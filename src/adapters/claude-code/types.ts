/**
 * Claude Code's hook protocol, declared locally (no vendor SDK). From Claude Code 2.1.332 and
 * @anthropic-ai/claude-agent-sdk 0.3.332 `sdk.d.ts` (2026-11-24); see docs/adapters/claude-code.md.
 */

/** `HOOK_EVENTS` in sdk.d.ts 0.3.332. */
export const CLAUDE_CODE_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const;
export type ClaudeCodeEvent = (typeof CLAUDE_CODE_EVENTS)[number];

/** The tools whose `tool_input.command` is a shell command line. */
export const CLAUDE_CODE_SHELL_TOOLS: readonly string[] = ['Bash', 'PowerShell'];

/** `BaseHookInput`. */
export interface ClaudeCodeBaseInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  hook_event_name: string;
  permission_mode?: 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto';
  prompt_id?: string;
  agent_id?: string;
  agent_type?: string;
  effort?: { level: string };
}

export interface ClaudeCodeMcpServer {
  name: string;
  source: string;
}

export interface ClaudeCodePreToolUseInput extends ClaudeCodeBaseInput {
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  mcp_server?: ClaudeCodeMcpServer;
}

/** `tool_input` of Bash (PowerShell has the same `command`). */
export interface ClaudeCodeBashInput {
  command: string;
  timeout?: number;
  description?: string;
  run_in_background?: boolean;
  dangerouslyDisableSandbox?: boolean;
}

export interface ClaudeCodePostToolUseInput extends ClaudeCodeBaseInput {
  hook_event_name: 'PostToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_response: unknown;
  tool_use_id: string;
  duration_ms?: number;
  mcp_server?: ClaudeCodeMcpServer;
}

export interface ClaudeCodePostToolUseFailureInput extends ClaudeCodeBaseInput {
  hook_event_name: 'PostToolUseFailure';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  error: string;
  is_interrupt?: boolean;
  duration_ms?: number;
  mcp_server?: ClaudeCodeMcpServer;
}

export interface ClaudeCodePreSkillShellCommandInput extends ClaudeCodeBaseInput {
  hook_event_name: 'PreSkillShellCommand';
  tool_name: 'Bash' | 'PowerShell';
  tool_input: { command: string };
  tool_use_id: string;
  command_name: string;
  command_source?: string;
  invoked_by: string;
}

export interface ClaudeCodePermissionRequestInput extends ClaudeCodeBaseInput {
  hook_event_name: 'PermissionRequest';
  tool_name: string;
  tool_input: Record<string, unknown>;
  permission_suggestions?: unknown[];
  mcp_server?: ClaudeCodeMcpServer;
}

export interface ClaudeCodeUserPromptSubmitInput extends ClaudeCodeBaseInput {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
  source?: string;
  session_title?: string;
}

/** `hookSpecificOutput` for PreToolUse (and, without additionalContext, PreSkillShellCommand). */
export interface ClaudeCodePreToolUseSpecific {
  hookEventName: 'PreToolUse' | 'PreSkillShellCommand';
  permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer';
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
}

export interface ClaudeCodePermissionRequestSpecific {
  hookEventName: 'PermissionRequest';
  decision: { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message?: string; interrupt?: boolean };
}

/** The events whose `hookSpecificOutput` carries only `additionalContext` (for Buckler's use). */
export interface ClaudeCodeContextSpecific {
  hookEventName: string;
  additionalContext: string;
}

/** `SyncHookJSONOutput` (the keys Buckler uses). */
export interface ClaudeCodeReply {
  /** Shown to the person. */
  systemMessage?: string;
  /** Legacy / event-specific: `block` stops a prompt (UserPromptSubmit). */
  decision?: 'approve' | 'block';
  reason?: string;
  hookSpecificOutput?: ClaudeCodePreToolUseSpecific | ClaudeCodePermissionRequestSpecific | ClaudeCodeContextSpecific;
}
