/**
 * Kilo Code's plugin hooks, declared locally. Kilo Code CLI 7.7.9 (`@kilocode/cli-linux-x64`,
 * an OpenCode fork) calls plugins with OpenCode's API: `tool.execute.before(input: {tool,
 * sessionID, callID}, output: {args})` before every tool (14 trigger sites in the binary) and
 * `tool.execute.after` after it; a throw refuses the call. No `permission.ask` trigger. Buckler's
 * OpenCode plugin sends the hook command the same JSON as for OpenCode
 * (../opencode/types.ts), named by `hook_event_name`.
 */

/** The triggers Buckler's plugin hands to the hook command in Kilo Code. */
export const KILO_CODE_EVENTS = ['tool.execute.before', 'tool.execute.after'] as const;
