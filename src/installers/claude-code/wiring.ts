/**
 * Buckler's hooks in Claude Code's settings, as data: matcher groups holding one command hook
 * each. PreToolUse has two: the shell and file tools as a plain name list, and every MCP tool
 * as a pattern. The list stays a plain list on purpose: Claude Code 2.1.332 matches a plain
 * list by name *and* by tool family (its `Monitor` tool reaches a `Bash` list as a Bash call),
 * while a pattern such as `^(Bash|…|mcp__.*)$` is tested against the tool's own name only, so
 * folding MCP into it would let `Monitor` through. The post-tool events keep the shell
 * matcher: Buckler's after-the-fact nudges are about shell commands, and a hook after every
 * Read/Edit would start a process for nothing (see docs/hooks.md).
 */
import type { WantedHook } from '../installer.ts';

export const CLAUDE_TIMEOUT_S = 10;
const CLAUDE_SHELL_MATCHER = 'Bash|PowerShell';
/** Shell and file tools (adapters/claude-code/types.ts `CLAUDE_CODE_FILE_TOOLS`), by name. */
const CLAUDE_TOOLS_MATCHER = 'Bash|PowerShell|Read|Write|Edit|MultiEdit|NotebookEdit|Grep|Glob';
/** Every MCP tool (`mcp__<server>__<tool>`). */
const CLAUDE_MCP_MATCHER = 'mcp__.*';

export const CLAUDE_HOOKS: readonly WantedHook[] = [
  { event: 'PreToolUse', matcher: CLAUDE_TOOLS_MATCHER, timeout: CLAUDE_TIMEOUT_S, blockOnFailure: true },
  { event: 'PreToolUse', matcher: CLAUDE_MCP_MATCHER, timeout: CLAUDE_TIMEOUT_S, blockOnFailure: true },
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
