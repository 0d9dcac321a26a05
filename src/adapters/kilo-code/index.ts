/**
 * The Kilo Code adapter (protocol: `@kilocode/cli-linux-x64` 7.7.9, published 2026-09-23 — read
 * from the shipped binary and run end to end 2026-12-03). Kilo Code is an OpenCode fork with the
 * same plugin API (`tool.execute.before`/`after`, a throw refuses the call): Buckler's OpenCode
 * plugin runs in it unchanged, so this adapter reads the same JSON (../opencode/) and answers in
 * the same shape, under its own name. See docs/adapters/kilo-code.md.
 */
import { PolicyError, type PolicyInput } from '../../core/contract.ts';
import type { Adapter } from '../adapter.ts';
import { failureReplyOf } from '../failure.ts';
import { opencodeAdapter } from '../opencode/index.ts';
import { adaptOpencodeInput } from '../opencode/input.ts';
import { opencodeIsBeforeAction, pluginOutput } from '../opencode/output.ts';
import { KILO_CODE_EVENTS } from './types.ts';

const adaptKiloCodeOutput = pluginOutput('Kilo Code');
const adaptKiloCodeInput = (raw: unknown): PolicyInput => {
  try {
    return { ...adaptOpencodeInput(raw), harness: 'kilo-code' };
  } catch (e) {
    // An unknown event refused with what was read (payload.ts refuseUnknownToolCall): under Kilo Code's name.
    if (e instanceof PolicyError && e.input !== undefined) throw new PolicyError(e.code, e.message.replace(/^OpenCode /, 'Kilo Code '), { ...e.input, harness: 'kilo-code' });
    throw e;
  }
};

export const kiloCodeAdapter: Adapter = {
  ...opencodeAdapter,
  name: 'kilo-code',
  title: 'Kilo Code',
  protocol: { artefact: '@kilocode/cli-linux-x64', version: '7.7.9', date: '2026-09-23' },
  events: KILO_CODE_EVENTS,
  adaptInput: adaptKiloCodeInput,
  adaptOutput: adaptKiloCodeOutput,
  failureReply: failureReplyOf({ eventField: 'hook_event_name', adaptOutput: adaptKiloCodeOutput, isBeforeAction: opencodeIsBeforeAction }),
};
