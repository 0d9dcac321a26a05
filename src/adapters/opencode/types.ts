/**
 * OpenCode's plugin hooks and the JSON Buckler's plugin exchanges with the hook command.
 *
 * OpenCode (`opencode-ai@1.18.33`, published 2026-09-28) has no command hooks. Plugins are ES modules
 * loaded in process; each exported function returns hooks, among them
 * `tool.execute.before(input: {tool, sessionID, callID}, output: {args})` and
 * `tool.execute.after(input: {tool, sessionID, callID, args}, output: {title, output, metadata})`
 * (read from the shipped binary: `i.trigger("tool.execute.before",{tool:k.id,sessionID:…,callID:…},{args:b})`,
 * and run end to end on 2026-12-01). A hook that throws aborts that one tool call and the
 * error's message is the tool result the model reads; a hook that changes `output.output` in
 * `tool.execute.after` changes what the model reads.
 *
 * Buckler's plugin (src/installers/opencode/plugin.ts) sends the hook command one JSON object
 * per call on stdin, named by `hook_event_name` (OpenCode's own trigger name), and reads one
 * reply from stdout. That wire format is Buckler's, described in docs/adapters/opencode.md.
 */

/** The triggers Buckler's plugin hands to the hook command. */
export const OPENCODE_EVENTS = ['tool.execute.before', 'tool.execute.after'] as const;

/** The built-in shell tool (`bash`: `command`, `workdir`, `timeout`, `description`). */
export const OPENCODE_SHELL_TOOL = 'bash';

/** Built-in file tools → the argument that names the path and the access it is. */
export const OPENCODE_FILE_TOOLS: ReadonlyMap<string, { key: string; access: 'read' | 'write' }> = new Map([
  ['read', { key: 'filePath', access: 'read' }],
  ['write', { key: 'filePath', access: 'write' }],
  ['edit', { key: 'filePath', access: 'write' }],
  ['multiedit', { key: 'filePath', access: 'write' }],
]);

/** Built-in search tools: their optional `path` is read (where they look). */
export const OPENCODE_SEARCH_TOOLS = ['glob', 'grep', 'list'] as const;

/** The patch tool (offered instead of edit/write to some models): paths sit in `patchText`. */
export const OPENCODE_PATCH_TOOL = 'apply_patch';
export const OPENCODE_PATCH_KEY = 'patchText';

/**
 * Built-in tools that are not MCP tools (1.18.33 offers these names; `ro.*` MCP resource tools
 * have their own names). Any other name with an underscore is an MCP tool, named
 * `<server>_<tool>` with every character outside `[A-Za-z0-9_-]` turned into `_`.
 */
export const OPENCODE_BUILTIN_TOOLS: ReadonlySet<string> = new Set([
  'bash',
  'read',
  'write',
  'edit',
  'multiedit',
  'apply_patch',
  'glob',
  'grep',
  'list',
  'task',
  'todowrite',
  'todoread',
  'webfetch',
  'websearch',
  'codesearch',
  'skill',
  'lsp',
  'question',
  'plan_enter',
  'plan_exit',
  'invalid',
]);

/*
 * The hook command's reply, one JSON object on stdout (or nothing: no opinion): `decision:
 * "deny"` makes the plugin throw `reason` (the call is refused, the model reads `reason`);
 * `context` is appended to what the model reads of the call's result.
 */
