/**
 * Cursor's hook protocol, declared locally (no vendor SDK). Field names from the hook runner
 * bundled in @cursor/sdk 1.0.32 (2026-09-22); see docs/adapters/cursor.md.
 */

/** The 21 event names the 1.0.32 validator knows. */
export const CURSOR_EVENTS = [
  'sessionStart',
  'sessionEnd',
  'beforeSubmitPrompt',
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'subagentStart',
  'subagentStop',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
  'beforeReadFile',
  'afterFileEdit',
  'beforeTabFileRead',
  'afterTabFileEdit',
  'afterAgentResponse',
  'afterAgentThought',
  'preCompact',
  'stop',
  'workspaceOpen',
] as const;
export type CursorEvent = (typeof CURSOR_EVENTS)[number];

/**
 * The file tools of preToolUse / postToolUse and how each touches its `file_path` (the tool
 * wrappers in @cursor/sdk 1.0.32: `Read {file_path}`, `Write {file_path, content}` — Cursor's
 * edit tool: Claude Code's `Edit` matcher is converted to `Write` —, `Delete {file_path}`,
 * `Grep {pattern, file_path?, glob?, output_mode?}`). Grep names the file or directory it
 * searches: that path itself is read, not each file under it (protection-packs.md §1).
 */
export const CURSOR_FILE_TOOLS: ReadonlyMap<string, { access: 'read' | 'write' | 'delete'; required: boolean }> = new Map([
  ['Read', { access: 'read', required: true }],
  ['Write', { access: 'write', required: true }],
  ['Delete', { access: 'delete', required: true }],
  ['Grep', { access: 'read', required: false }],
] as const);

/** Added by the executor to every event except `workspaceOpen`. */
export interface CursorCommonInput {
  hook_event_name: string;
  conversation_id?: string;
  generation_id?: string;
  model?: string;
  model_id?: string;
  session_id?: string;
  cursor_version?: string;
  /** The SDK sends exactly one root. */
  workspace_roots?: string[];
  user_email?: string | null;
  transcript_path?: string | null;
}

export interface CursorBeforeShellExecutionInput extends CursorCommonInput {
  hook_event_name: 'beforeShellExecution';
  command: string;
  /** May be an empty string: treat as missing. */
  cwd?: string;
  sandbox?: boolean;
}

/** `tool_input` of the `Shell` tool (`working_directory` in an older doc shape). */
export interface CursorShellToolInput {
  command: string;
  cwd?: string;
  working_directory?: string;
}

export interface CursorPreToolUseInput extends CursorCommonInput {
  hook_event_name: 'preToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id?: string;
  cwd?: string;
  parent_tool_call_id?: string;
}

export interface CursorPostToolUseInput extends CursorCommonInput {
  hook_event_name: 'postToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_output?: string;
  duration?: number;
  tool_use_id?: string;
  cwd?: string;
}

export interface CursorPostToolUseFailureInput extends CursorCommonInput {
  hook_event_name: 'postToolUseFailure';
  tool_name: string;
  tool_input: Record<string, unknown>;
  error_message?: string;
  failure_type?: 'error' | 'timeout' | 'permission_denied';
  duration?: number;
  tool_use_id?: string;
  is_interrupt?: boolean;
}

export interface CursorBeforeMCPExecutionInput extends CursorCommonInput {
  hook_event_name: 'beforeMCPExecution';
  tool_name: string;
  /** JSON-encoded string, not an object. */
  tool_input: string;
  mcp_server_name?: string;
  mcp_server_url?: string;
  url?: string;
  command?: string;
}

export interface CursorBeforeReadFileInput extends CursorCommonInput {
  hook_event_name: 'beforeReadFile';
  file_path: string;
  content?: string;
  attachments?: unknown[];
}

export interface CursorAfterFileEditInput extends CursorCommonInput {
  hook_event_name: 'afterFileEdit';
  file_path: string;
  edits?: { old_string: string; new_string: string }[];
}

/** `tool_input` of the preToolUse file tools (Read, Write, Delete, Grep). */
export interface CursorFileToolInput {
  file_path?: string;
  content?: string;
  pattern?: string;
  glob?: string;
  output_mode?: string;
}

export interface CursorBeforeSubmitPromptInput extends CursorCommonInput {
  hook_event_name: 'beforeSubmitPrompt';
  prompt: string;
  attachments?: { type: 'file' | 'rule'; file_path: string }[];
  composer_mode?: string;
}

/** Reply of the permission events (beforeShellExecution, beforeMCPExecution, preToolUse, …). */
export interface CursorPermissionReply {
  permission?: 'allow' | 'deny' | 'ask';
  user_message?: string;
  agent_message?: string;
  /** preToolUse, subagentStart only. */
  additional_context?: string;
}

/** Reply of beforeSubmitPrompt. */
export interface CursorPromptReply {
  continue?: boolean;
  user_message?: string;
  additional_context?: string;
}

/** Reply of postToolUse / postToolUseFailure / sessionStart (context only). */
export interface CursorContextReply {
  additional_context?: string;
}

export type CursorReply = CursorPermissionReply | CursorPromptReply | CursorContextReply;

/** Cursor drops (or, fail-closed, blocks on) longer `additional_context`. */
export const CURSOR_CONTEXT_LIMIT = 10_000;
