/**
 * Buckler's hooks in Claude Code's settings, as data: one matcher group per event, holding
 * one command hook. The post-tool events use the same `Bash|PowerShell` matcher as PreToolUse:
 * Buckler's after-the-fact nudges are about shell commands, and a hook on every Read/Edit would
 * start a process for nothing (see docs/hooks.md).
 */
import type { WantedHook } from '../installer.ts';

export const CLAUDE_TIMEOUT_S = 10;
export const CLAUDE_SHELL_MATCHER = 'Bash|PowerShell';

export const CLAUDE_HOOKS: readonly WantedHook[] = [
  { event: 'PreToolUse', matcher: CLAUDE_SHELL_MATCHER, timeout: CLAUDE_TIMEOUT_S, blockOnFailure: true },
  { event: 'PostToolUse', matcher: CLAUDE_SHELL_MATCHER, timeout: CLAUDE_TIMEOUT_S, blockOnFailure: false },
  { event: 'PostToolUseFailure', matcher: CLAUDE_SHELL_MATCHER, timeout: CLAUDE_TIMEOUT_S, blockOnFailure: false },
];

/** The command hook (handler) for one wanted hook. */
export function claudeHandler(hook: WantedHook, command: string): Record<string, unknown> {
  return {
    type: 'command',
    command,
    timeout: hook.timeout,
    ...(hook.blockOnFailure ? { onFailure: 'block' } : {}),
  };
}
