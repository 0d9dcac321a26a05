/**
 * Gemini CLI's hook protocol, declared locally. From `@google/gemini-cli@0.61.0` (2026-09-25):
 * the core bundle `bundle/chunk-JDPZ4CE3.js` (`var HookEventName`, `createBaseInput`,
 * `fireBeforeToolEvent`, `evaluateBeforeToolHook`, class `HookOutput`, the tool-name
 * constants) and e2e runs. See
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

/*
 * The reply keys Buckler uses (class `HookOutput`): `decision: deny` blocks the one call
 * (BeforeTool: "Tool execution blocked: <reason>"); `continue: false` would stop the whole agent
 * and `ask` hangs a headless run, so neither is ever sent.
 */
