/**
 * The Factory Droid adapter (protocol: @factory/cli 0.225, native build @factory/cli-linux-x64
 * 0.225.2 of 2026-09-23: read from the shipped binary and run end to end on 2026-12-01).
 * See docs/adapters/factory-droid.md.
 */
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptDroidInput } from './input.ts';
import { adaptDroidOutput, droidIsBeforeAction, droidIsBlocking } from './output.ts';
import { DROID_EVENTS } from './types.ts';

export const factoryDroidAdapter: Adapter = {
  name: 'factory-droid',
  title: 'Factory Droid',
  protocol: { artefact: '@factory/cli-linux-x64', version: '0.225.2', date: '2026-09-23' },
  events: DROID_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptDroidInput,
  adaptOutput: adaptDroidOutput,
  isBeforeAction: droidIsBeforeAction,
  isBlocking: droidIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptDroidOutput, isBeforeAction: droidIsBeforeAction }),
  // PreToolUse deny: the person's text is the `systemMessage`, the model reads the agent's reason.
  personOnly: { deny: true, ask: true },
  // The keys 0.225.2 sends with a PreToolUse (captured, fixtures/PreToolUse.input.json).
  selfTestEvent: (command, cwd) => ({
    session_id: 'buckler-doctor',
    transcript_path: '/dev/null',
    cwd,
    permission_mode: 'auto-low',
    hook_event_name: 'PreToolUse',
    tool_name: 'Execute',
    tool_input: { summary: 'buckler doctor self-test', command },
  }),
};
