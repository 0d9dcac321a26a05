/**
 * The OpenCode adapter (protocol: opencode-ai 1.18.33, published 2026-09-28: plugin hooks read
 * from the shipped binary and run end to end on 2026-12-01; the JSON between Buckler's plugin
 * and the hook command is Buckler's own). See docs/adapters/opencode.md.
 */
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptOpencodeInput } from './input.ts';
import { adaptOpencodeOutput, opencodeIsBeforeAction, opencodeIsBlocking } from './output.ts';
import { OPENCODE_EVENTS } from './types.ts';

export const opencodeAdapter: Adapter = {
  name: 'opencode',
  title: 'OpenCode',
  protocol: { artefact: 'opencode-ai', version: '1.18.33', date: '2026-09-28' },
  events: OPENCODE_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptOpencodeInput,
  adaptOutput: adaptOpencodeOutput,
  isBeforeAction: opencodeIsBeforeAction,
  isBlocking: opencodeIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptOpencodeOutput, isBeforeAction: opencodeIsBeforeAction }),
  // A deny throws the agent's text; an ask (sent as a deny) throws one error that both the model and the person read.
  personOnly: { deny: true, ask: false },
  // What the plugin sends for OpenCode's `tool.execute.before` of a `bash` call.
  selfTestEvent: (command, cwd) => ({
    hook_event_name: 'tool.execute.before',
    tool: 'bash',
    sessionID: 'buckler-doctor',
    callID: 'buckler-doctor',
    args: { command, description: 'buckler doctor self-test' },
    directory: cwd,
    worktree: cwd,
  }),
};
