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

/**
 * The file tools of preToolUse / postToolUse and how each touches its `file_path` (the tool
 * wrappers in @cursor/sdk 1.0.32: `Read {file_path}`, `Write {file_path, content}` — Cursor's
 * edit tool: Claude Code's `Edit` matcher is converted to `Write` —, `Delete {file_path}`,
 * `Grep {pattern, file_path?, glob?, output_mode?}`). Grep names the file or directory it
 * searches: that path itself is read, not each file under it (docs/packs.md, "Paths").
 */
export const CURSOR_FILE_TOOLS: ReadonlyMap<string, { access: 'read' | 'write' | 'delete'; required: boolean }> = new Map([
  ['Read', { access: 'read', required: true }],
  ['Write', { access: 'write', required: true }],
  ['Delete', { access: 'delete', required: true }],
  ['Grep', { access: 'read', required: false }],
] as const);

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
