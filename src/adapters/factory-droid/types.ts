/**
 * Factory Droid's hook protocol, declared locally. From `@factory/cli@0.225.1` with
 * `@factory/cli-linux-x64@0.225.2`, read 2026-12-01: the JS inside the Bun-compiled `bin/droid`,
 * read by byte search for the strings quoted here (docs/adapters/factory-droid.md).
 * See docs/adapters/factory-droid.md.
 */

/** The events 0.225 fires (`x(["PreToolUse","PostToolUse","Notification",…`). */
export const DROID_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
] as const;

/** The shell tool (`e!=="Execute"||typeof i.command!=="string"`). */
export const DROID_SHELL_TOOL = 'Execute';
/** The patch tool: the paths it touches sit in the patch text's `*** … File:` headers. */
export const DROID_PATCH_TOOL = 'ApplyPatch';
/**
 * The `tool_input` keys that may carry ApplyPatch's patch text, first found wins: 0.225.2 uses
 * `input` ("ApplyPatch requires a non-empty patch body in the `input` field").
 */
export const DROID_PATCH_KEYS = ['input', 'patch', 'command'] as const;
/** File tools and how they touch the file named by `file_path` (the tool schemas 0.225.2 offers the model). */
export const DROID_FILE_TOOLS: ReadonlyMap<string, 'read' | 'write'> = new Map([
  ['Create', 'write'],
  ['Edit', 'write'],
  ['MultiEdit', 'write'],
  ['Read', 'read'],
]);

/* MCP tools are named `mcp__<server>__<tool>` as in Claude Code (not run here): ../claude-shaped.ts reads them. */

/*
 * Droid parses stdout only when it starts with `{`. `hookSpecificOutput.permissionDecision: ask`
 * is only logged by 0.225 (the tool runs), so Buckler sends only `deny`; it never sends
 * `continue: false` (stops the session) or exits 3 (aborts the agent).
 */
