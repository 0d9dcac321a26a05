/**
 * Buckler's hooks in Copilot CLI's settings.json, native protocol, as data: one entry per
 * event, `{type: "command", bash, timeoutSec}`. Native payloads do not name their event, so
 * each entry's command passes it: `… --driver copilot-cli --event <event>`. No matcher: native
 * preToolUse hooks see every tool (shell, file and MCP tools alike), and so does Buckler.
 * `timeoutSec` is in seconds. Copilot blocks a preToolUse call whose hook exits non-zero or
 * crashes, but lets it run when the hook times out, so `blockOnFailure` is false (not assured).
 */
import type { WantedHook } from '../installer.ts';

const COPILOT_TIMEOUT_S = 10;

export const COPILOT_HOOKS: readonly WantedHook[] = [
  { event: 'preToolUse', timeout: COPILOT_TIMEOUT_S, blockOnFailure: false },
  { event: 'postToolUse', timeout: COPILOT_TIMEOUT_S, blockOnFailure: false },
  { event: 'postToolUseFailure', timeout: COPILOT_TIMEOUT_S, blockOnFailure: false },
];

/** The settings.json entry for one wanted hook; `command` is the shared one, without `--event`. */
export function copilotEntry(hook: WantedHook, command: string): Record<string, unknown> {
  return { type: 'command', bash: `${command} --event ${hook.event}`, timeoutSec: hook.timeout };
}
