/**
 * GitHub Copilot CLI's native (camelCase) hook protocol, declared locally. From
 * `@github/copilot@1.0.102` (2026-10-21): the hook runtime in the SEA asset
 * (`package/prebuilds/linux-x64/runtime.node`, read with `strings`), the SDK types shipped in
 * the same asset (`package/copilot-sdk/types.d.ts`: `PreToolUseHookInput`,
 * `PreToolUseHookOutput`, …), the tool schemas in `package/cli-main.js`, and e2e runs. See
 * docs/adapters/copilot-cli.md.
 */

/** The native events of 1.0.102 (`{"path":"hooks.preToolUse"` … in runtime.node). */
export const COPILOT_EVENTS = [
  'sessionStart',
  'sessionEnd',
  'userPromptSubmitted',
  'userPromptTransformed',
  'preToolUse',
  'preMcpToolCall',
  'permissionRequest',
  'postToolUse',
  'postToolUseFailure',
  'agentStop',
  'subagentStart',
  'subagentStop',
  'preCompact',
  'errorOccurred',
  'notification',
] as const;

/**
 * The payload key that names the event. Copilot sends it only on `permissionRequest`
 * (`hookName`); for every other event the installed command passes `--event <event>` and the
 * driver adds it under this key before the adapter reads the payload.
 */
export const COPILOT_EVENT_FIELD = 'hookName';

/** Shell tools: `toolArgs.command`. */
export const COPILOT_SHELL_TOOLS: readonly string[] = ['bash', 'powershell'];
/** File tools (cli-main.js): `view` {path}, `create` {path, file_text}, `edit`/`str_replace` {path, old_str, new_str}, `str_replace_editor`, `apply_patch`. */
export const COPILOT_PATCH_TOOL = 'apply_patch';

/* The reply (`PreToolUseHookOutput`) keys Buckler sends: `permissionDecision` (`deny`, `ask`), `permissionDecisionReason`, `additionalContext`. */
