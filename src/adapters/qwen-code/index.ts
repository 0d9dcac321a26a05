/**
 * The Qwen Code adapter (protocol: @qwen-code/qwen-code 0.15.10, read from the shipped bundle
 * and the QwenLM/qwen-code hook sources on 2026-12-01). See docs/adapters/qwen-code.md.
 */
import type { Adapter } from '../adapter.ts';
import { adaptQwenInput } from './input.ts';
import { adaptQwenOutput, qwenIsBeforeAction, qwenIsBlocking } from './output.ts';
import { QWEN_EVENTS } from './types.ts';

export const qwenCodeAdapter: Adapter = {
  name: 'qwen-code',
  title: 'Qwen Code',
  protocol: { artefact: '@qwen-code/qwen-code', version: '0.15.10', date: '2026-12-01' },
  events: QWEN_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptQwenInput,
  adaptOutput: adaptQwenOutput,
  isBeforeAction: qwenIsBeforeAction,
  isBlocking: qwenIsBlocking,
  // `createBaseInput(eventName)` plus the PreToolUse fields of `firePreToolUseEvent`.
  selfTestEvent: (command, cwd) => ({
    session_id: 'buckler-doctor',
    transcript_path: '/dev/null',
    cwd,
    hook_event_name: 'PreToolUse',
    timestamp: '2026-01-01T00:00:00.000Z',
    permission_mode: 'default',
    tool_name: 'run_shell_command',
    tool_input: { command, is_background: false },
    tool_use_id: 'buckler-doctor',
  }),
};
