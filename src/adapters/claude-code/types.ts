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

/**
 * The file tools and the argument naming the path each touches (`sdk-tools.d.ts` in
 * @anthropic-ai/claude-code 2.1.332: `FileReadInput`, `FileWriteInput`, `FileEditInput`,
 * `NotebookEditInput`, `GrepInput`, `GlobInput`; `MultiEdit`, gone from 2.1.332, sent
 * `file_path` + `edits[]` before). `Grep` and `Glob` name the file or directory they search:
 * that path itself is read, not each file under it (protection-packs.md §1); without a `path`
 * they search the session's directory and name no path.
 */
export interface FileToolSpec {
  /** The `tool_input` key naming the path. */
  field: string;
  access: 'read' | 'write';
  /** The tool cannot run without it (a call lacking it is not understood). */
  required: boolean;
}

export const CLAUDE_CODE_FILE_TOOLS: ReadonlyMap<string, FileToolSpec> = new Map<string, FileToolSpec>([
  ['Read', { field: 'file_path', access: 'read', required: true }],
  ['Write', { field: 'file_path', access: 'write', required: true }],
  ['Edit', { field: 'file_path', access: 'write', required: true }],
  ['MultiEdit', { field: 'file_path', access: 'write', required: true }],
  ['NotebookEdit', { field: 'notebook_path', access: 'write', required: true }],
  ['Grep', { field: 'path', access: 'read', required: false }],
  ['Glob', { field: 'path', access: 'read', required: false }],
]);

/** `FileReadInput` (Read). */
export interface ClaudeCodeReadInput {
  file_path: string;
  offset?: number;
  limit?: number;
  pages?: string;
  allow_large?: boolean;
}

/** `FileWriteInput` (Write). */
export interface ClaudeCodeWriteInput {
  file_path: string;
  content: string;
}

/** `FileEditInput` (Edit). */
export interface ClaudeCodeEditInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** `NotebookEditInput` (NotebookEdit). */
export interface ClaudeCodeNotebookEditInput {
  notebook_path: string;
  cell_id?: string;
  new_source: string;
  cell_type?: 'code' | 'markdown';
  edit_mode?: 'replace' | 'insert' | 'delete';
}

/** `GrepInput` / `GlobInput` (the keys Buckler reads). */
export interface ClaudeCodeSearchInput {
  pattern: string;
  path?: string;
  glob?: string;
}

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
