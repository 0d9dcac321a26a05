/**
 * PolicyOutput → the reply Buckler's OpenCode plugin reads (exit 0, one JSON object on stdout,
 * or nothing). Before a tool runs, a deny is `{"decision":"deny","reason":…}`: the plugin
 * throws `reason`, which aborts that one tool call and is what the model reads as its result
 * (the person sees it as the tool's error). OpenCode has no way to ask the person from a plugin
 * (no `permission.ask` trigger in 1.18.33), so an ask is sent as a deny that says how a person
 * lets the call through. A nudge, and anything Buckler has to say after a call, is
 * `{"context":…}`: the plugin appends it to the call's result the model reads.
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventNameOf } from '../payload.ts';
import { agentMessage, askAsDeny, contextText } from '../reply.ts';

/** Only `tool.execute.after` is after an action; anything else (unreadable, unknown) is answered as before one. */
export function opencodeIsBeforeAction(raw: unknown): boolean {
  return eventNameOf(raw, 'hook_event_name') !== 'tool.execute.after';
}

function reply(output: PolicyOutput, before: boolean, title: string): Record<string, unknown> | null {
  if (!before) {
    const text = contextText(output);
    return text === null ? null : { context: text };
  }
  if (output.decision === 'deny') return { decision: 'deny', reason: agentMessage(output) };
  if (output.decision === 'ask') {
    const { person, agent } = askAsDeny(output, title);
    // One channel reaches both the model and the person: the thrown error.
    return { decision: 'deny', reason: `${agent}\n\nFor the person: ${person}` };
  }
  return output.decision === 'nudge' && output.additional_context ? { context: output.additional_context } : null;
}

/** The reply for a harness that runs Buckler's plugin (OpenCode, Kilo Code), named `title` in an ask turned deny. */
export function pluginOutput(title: string): (output: PolicyOutput, raw: unknown) => NativeReply {
  return (output, raw) => ({ stdout: reply(output, opencodeIsBeforeAction(raw), title), exitCode: 0 });
}

export const adaptOpencodeOutput: (output: PolicyOutput, raw: unknown) => NativeReply = pluginOutput('OpenCode');

/**
 * The plugin's reading of a reply: `decision: "deny"` refuses the call. The plugin also refuses
 * a call before it runs when the hook command exits non-zero, prints something that is not one
 * JSON object, or does not answer in time (it cannot tell those from a Buckler that failed).
 */
export function opencodeIsBlocking(reply: NativeReply): boolean {
  if (reply.exitCode !== 0) return true;
  return reply.stdout !== null && reply.stdout.decision === 'deny';
}
