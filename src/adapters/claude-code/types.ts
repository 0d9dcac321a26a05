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

/** The tools whose `tool_input.command` is a shell command line. */
export const CLAUDE_CODE_SHELL_TOOLS: readonly string[] = ['Bash', 'PowerShell'];

/**
 * The file tools and the argument naming the path each touches (`sdk-tools.d.ts` in
 * @anthropic-ai/claude-code 2.1.332: `FileReadInput`, `FileWriteInput`, `FileEditInput`,
 * `NotebookEditInput`, `GrepInput`, `GlobInput`; `MultiEdit`, gone from 2.1.332, sent
 * `file_path` + `edits[]` before). `Grep` and `Glob` name the file or directory they search:
 * that path itself is read, not each file under it (docs/packs.md, "Paths"); without a `path`
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
