/**
 * The Claude Code adapter (protocol: Claude Code 2.1.332 / agent SDK 0.3.332, 2026-11-24).
 * See docs/adapters/claude-code.md.
 */
import { systemMessageNotice, type Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { adaptClaudeCodeInput } from './input.ts';
import { adaptClaudeCodeOutput, claudeCodeIsBeforeAction, claudeCodeIsBlocking } from './output.ts';
import { CLAUDE_CODE_EVENTS } from './types.ts';

export const claudeCodeAdapter: Adapter = {
  name: 'claude-code',
  title: 'Claude Code',
  protocol: { artefact: '@anthropic-ai/claude-code', version: '2.1.332', date: '2026-11-24' },
  events: CLAUDE_CODE_EVENTS,
  eventField: 'hook_event_name',
  adaptInput: adaptClaudeCodeInput,
  adaptOutput: adaptClaudeCodeOutput,
  isBeforeAction: claudeCodeIsBeforeAction,
  notice: systemMessageNotice,
  isBlocking: claudeCodeIsBlocking,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptClaudeCodeOutput, isBeforeAction: claudeCodeIsBeforeAction }),
  // A deny's person text is the `systemMessage`; an ask's is its reason, which the model receives in `-p` (real-clients.md): the hint goes to `systemMessage` (notice) there.
  personOnly: { deny: true, ask: false },
  selfTestEvent: (command, cwd) => ({
    session_id: 'buckler-doctor',
    transcript_path: '',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'buckler doctor self-test' },
    tool_use_id: 'buckler-doctor',
  }),
};
