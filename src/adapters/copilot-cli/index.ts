/**
 * The GitHub Copilot CLI adapter, native protocol (@github/copilot 1.0.102, 2026-10-21). See
 * docs/adapters/copilot-cli.md (and there why native rather than Claude-compatible).
 */
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptCopilotInput } from './input.ts';
import { adaptCopilotOutput, copilotIsBeforeAction, copilotIsBlocking } from './output.ts';
import { COPILOT_EVENT_FIELD, COPILOT_EVENTS } from './types.ts';

export const copilotCliAdapter: Adapter = {
  name: 'copilot-cli',
  title: 'GitHub Copilot CLI',
  protocol: { artefact: '@github/copilot', version: '1.0.102', date: '2026-10-21' },
  events: COPILOT_EVENTS,
  eventField: COPILOT_EVENT_FIELD,
  adaptInput: adaptCopilotInput,
  adaptOutput: adaptCopilotOutput,
  isBeforeAction: copilotIsBeforeAction,
  isBlocking: copilotIsBlocking,
  failureReply: failureReplyOf({ eventField: COPILOT_EVENT_FIELD, adaptOutput: adaptCopilotOutput, isBeforeAction: copilotIsBeforeAction }),
  // A deny's reason is the agent's text (the person's is not sent); an ask's reason is what the model reads in `-p` ("Denied by preToolUse hook (unable to ask user for confirmation): R").
  personOnly: { deny: true, ask: false },
  // A native preToolUse as the adapter sees it: with the `hookName` the driver adds from
  // `--event`, so the self-test reads the same whether or not the command passes --event.
  selfTestEvent: (command, cwd) => ({
    hookName: 'preToolUse',
    sessionId: 'buckler-doctor',
    timestamp: 0,
    cwd,
    toolName: 'bash',
    toolArgs: { command },
  }),
};
