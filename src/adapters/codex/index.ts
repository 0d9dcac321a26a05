/**
 * The Codex CLI adapter (protocol: @openai/codex 0.169.0, 2026-11-13). See docs/adapters/codex.md.
 */
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptCodexInput } from './input.ts';
import { adaptCodexOutput, codexIsBeforeAction, codexIsBlocking } from './output.ts';
import { CODEX_EVENTS } from './types.ts';

export const codexAdapter: Adapter = {
  name: 'codex',
  title: 'Codex CLI',
  protocol: { artefact: '@openai/codex', version: '0.169.0', date: '2026-11-13' },
  events: CODEX_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptCodexInput,
  adaptOutput: adaptCodexOutput,
  isBeforeAction: codexIsBeforeAction,
  isBlocking: codexIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptCodexOutput, isBeforeAction: codexIsBeforeAction }),
  // A deny (and an ask sent as one) gives the person's text in `systemMessage`, the model the agent's.
  personOnly: { deny: true, ask: true },
  // Every key `pre-tool-use.command.input` requires, as 0.169.0 sends them.
  selfTestEvent: (command, cwd) => ({
    session_id: 'buckler-doctor',
    turn_id: 'buckler-doctor',
    transcript_path: null,
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'buckler-doctor',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'buckler-doctor',
  }),
};
