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
