/**
 * GitHub Copilot CLI's native (camelCase) hook protocol, declared locally. From
 * `@github/copilot@1.0.102` (2026-10-21): the hook runtime in the SEA asset
 * (`package/prebuilds/linux-x64/runtime.node`, read with `strings`), the SDK types shipped in
 * the same asset (`package/copilot-sdk/types.d.ts`: `PreToolUseHookInput`,
 * `PreToolUseHookOutput`, …), the tool schemas in `package/cli-main.js`, and e2e runs
 * (reference notes harness-protocols-v2.md §3). See docs/adapters/copilot-cli.md.
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

/** preToolUse on stdin (e2e): no event name; `timestamp` in ms; `toolArgs` an object (older versions: a JSON string). */
export interface CopilotPreToolUseInput {
  sessionId: string;
  timestamp: number;
  cwd: string;
  toolName: string;
  toolArgs: unknown;
}

export interface CopilotPostToolUseInput extends CopilotPreToolUseInput {
  toolResult: { resultType: string; textResultForLlm: string };
}

export interface CopilotPostToolUseFailureInput extends CopilotPreToolUseInput {
  error: string;
}

/** `PreToolUseHookOutput` (keys Buckler uses). */
export interface CopilotPreToolUseReply {
  permissionDecision?: 'deny' | 'ask';
  permissionDecisionReason?: string;
  additionalContext?: string;
}
