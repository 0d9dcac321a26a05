/** The Cursor adapter (protocol: @cursor/sdk 1.0.32, 2026-09-22). See docs/adapters/cursor.md. */
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptCursorInput } from './input.ts';
import { adaptCursorOutput, cursorIsBeforeAction, cursorIsBlocking } from './output.ts';
import { CURSOR_EVENTS } from './types.ts';

export const cursorAdapter: Adapter = {
  name: 'cursor',
  title: 'Cursor',
  protocol: { artefact: '@cursor/sdk', version: '1.0.32', date: '2026-09-22' },
  events: CURSOR_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptCursorInput,
  adaptOutput: adaptCursorOutput,
  isBeforeAction: cursorIsBeforeAction,
  isBlocking: cursorIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptCursorOutput, isBeforeAction: cursorIsBeforeAction }),
  // Cursor's `user_message` is shown to the person; the agent reads `agent_message`.
  personOnly: { deny: true, ask: true },
  selfTestEvent: (command, cwd) => ({
    conversation_id: 'buckler-doctor',
    generation_id: 'buckler-doctor',
    hook_event_name: 'beforeShellExecution',
    command,
    cwd,
    workspace_roots: [cwd],
  }),
};
