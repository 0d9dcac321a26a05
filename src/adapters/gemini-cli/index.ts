/**
 * The Gemini CLI adapter (protocol: @google/gemini-cli 0.61.0, 2026-09-25). See
 * docs/adapters/gemini-cli.md.
 */
import { systemMessageNotice, type Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptGeminiInput } from './input.ts';
import { adaptGeminiOutput, geminiIsBeforeAction, geminiIsBlocking } from './output.ts';
import { GEMINI_EVENTS } from './types.ts';

export const geminiCliAdapter: Adapter = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  protocol: { artefact: '@google/gemini-cli', version: '0.61.0', date: '2026-09-25' },
  events: GEMINI_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptGeminiInput,
  adaptOutput: adaptGeminiOutput,
  isBeforeAction: geminiIsBeforeAction,
  notice: systemMessageNotice,
  isBlocking: geminiIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptGeminiOutput, isBeforeAction: geminiIsBeforeAction }),
  // BeforeTool: the person's text is the `systemMessage`, the model reads the agent's reason.
  personOnly: { deny: true, ask: true },
  selfTestEvent: (command, cwd) => ({
    session_id: 'buckler-doctor',
    transcript_path: '',
    cwd,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-01-01T00:00:00.000Z',
    tool_name: 'run_shell_command',
    tool_input: { command, description: 'buckler doctor self-test' },
  }),
};
