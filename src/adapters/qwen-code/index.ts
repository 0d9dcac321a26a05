/**
 * The Qwen Code adapter (protocol: @qwen-code/qwen-code 0.24.4, 2026-09-22: read from the shipped
 * bundle and run end to end on 2026-12-01). See docs/adapters/qwen-code.md.
 */
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptQwenInput } from './input.ts';
import { adaptQwenOutput, qwenIsBeforeAction, qwenIsBlocking } from './output.ts';
import { QWEN_EVENTS } from './types.ts';

export const qwenCodeAdapter: Adapter = {
  name: 'qwen-code',
  title: 'Qwen Code',
  protocol: { artefact: '@qwen-code/qwen-code', version: '0.24.4', date: '2026-09-22' },
  events: QWEN_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptQwenInput,
  adaptOutput: adaptQwenOutput,
  isBeforeAction: qwenIsBeforeAction,
  isBlocking: qwenIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptQwenOutput, isBeforeAction: qwenIsBeforeAction }),
  // PreToolUse deny: the person's text is the `systemMessage`, the model reads the agent's reason.
  personOnly: { deny: true, ask: true },
  // The keys 0.24.4 sends with a PreToolUse (captured, fixtures/PreToolUse.input.json).
  selfTestEvent: (command, cwd) => ({
    session_id: 'buckler-doctor',
    transcript_path: '/dev/null',
    cwd,
    hook_event_name: 'PreToolUse',
    timestamp: '2026-01-01T00:00:00.000Z',
    permission_mode: 'default',
    prompt_id: 'buckler-doctor',
    tool_name: 'run_shell_command',
    tool_input: { command, is_background: false },
    tool_use_id: 'buckler-doctor',
    tool_call_id: 'buckler-doctor',
  }),
};
