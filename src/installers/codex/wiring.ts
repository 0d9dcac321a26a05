/**
 * Buckler's hooks in Codex's hooks.json, as data (Claude Code's matcher-group shape). Matchers
 * are regular expressions tested against `tool_name` (empty or `*` = all): PreToolUse covers the
 * shell (`Bash`), file edits (`apply_patch`, whose matcher aliases are `Write` and `Edit`) and
 * MCP tools (`mcp__<server>__<tool>`); PostToolUse only the shell, as for Claude Code.
 * `timeout` is in seconds. Codex fails open on every hook failure, so `blockOnFailure` is false.
 */
import type { WantedHook } from '../installer.ts';

const CODEX_TIMEOUT_S = 10;
const CODEX_PRE_MATCHER = '^(Bash|apply_patch|mcp__.+)$';
const CODEX_POST_MATCHER = '^Bash$';

export const CODEX_HOOKS: readonly WantedHook[] = [
  { event: 'PreToolUse', matcher: CODEX_PRE_MATCHER, timeout: CODEX_TIMEOUT_S, blockOnFailure: false },
  { event: 'PostToolUse', matcher: CODEX_POST_MATCHER, timeout: CODEX_TIMEOUT_S, blockOnFailure: false },
];

/** The command hook (handler) for one wanted hook: `HookHandlerConfig::Command` keys only. */
export function codexHandler(hook: WantedHook, command: string): Record<string, unknown> {
  return { type: 'command', command, timeout: hook.timeout };
}
