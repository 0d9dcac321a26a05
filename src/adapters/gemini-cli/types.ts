/**
 * Gemini CLI's hook protocol, declared locally. From `@google/gemini-cli@0.61.0` (2026-09-25):
 * the core bundle `bundle/chunk-JDPZ4CE3.js` (`var HookEventName`, `createBaseInput`,
 * `fireBeforeToolEvent`, `evaluateBeforeToolHook`, class `HookOutput`, the tool-name
 * constants) and e2e runs (reference notes harness-protocols-v2.md §1). See
 * docs/adapters/gemini-cli.md.
 */

/** `var HookEventName` in 0.61.0. */
export const GEMINI_EVENTS = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'Notification',
  'AfterAgent',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
] as const;

/** `SHELL_TOOL_NAME`: `tool_input.command`, optional `dir_path` (relative to the project root). */
export const GEMINI_SHELL_TOOL = 'run_shell_command';
/** File tools (`READ_FILE_TOOL_NAME`, `WRITE_FILE_TOOL_NAME`, `EDIT_TOOL_NAME`, …). */
export const GEMINI_FILE_TOOLS = ['read_file', 'read_many_files', 'write_file', 'replace', 'list_directory', 'glob', 'grep_search'] as const;
/** MCP tools are `mcp_<server>_<tool>` (`MCP_TOOL_PREFIX`, `MCP_QUALIFIED_NAME_SEPARATOR`). */
export const GEMINI_MCP_PREFIX = 'mcp_';

/** `createBaseInput(eventName)` + the BeforeTool fields. */
export interface GeminiBeforeToolInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  hook_event_name: 'BeforeTool';
  /** ISO-8601. */
  timestamp: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  mcp_context?: { server_name: string; tool_name: string; command?: string; args?: string[]; cwd?: string; url?: string; tcp?: string };
  original_request_name?: string;
}

export interface GeminiAfterToolInput extends Omit<GeminiBeforeToolInput, 'hook_event_name'> {
  hook_event_name: 'AfterTool';
  tool_response: { llmContent: unknown; returnDisplay: unknown; error?: unknown };
}

/**
 * The keys of class `HookOutput` Buckler uses. `decision` `deny`/`block` blocks the one call
 * (BeforeTool: "Tool execution blocked: <reason>"); `continue: false` would stop the whole
 * agent and is never sent; `ask` hangs a headless run and is never sent.
 */
export interface GeminiReply {
  decision?: 'deny';
  reason?: string;
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
}
