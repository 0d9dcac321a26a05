/**
 * Helpers every adapter uses to word its replies: non-empty messages for deny/ask (harnesses
 * fall back to a generic text, or ignore the reply, when a reason is empty), safe truncation,
 * and the PolicyOutput the driver answers with when it could not check an event.
 */
import { allowOutput, type PolicyOutput } from '../core/contract.ts';

function filled(s: string | null | undefined): s is string {
  return typeof s === 'string' && s.trim() !== '';
}

function ruleNote(output: PolicyOutput): string {
  return output.rule ? ` (rule ${output.rule})` : '';
}

/** What the person reads for a deny or ask. */
export function personMessage(output: PolicyOutput): string {
  if (filled(output.user_message)) return output.user_message;
  if (filled(output.agent_message)) return output.agent_message;
  return output.decision === 'ask'
    ? `Buckler asks you to confirm this action${ruleNote(output)}.`
    : `Blocked by Buckler policy${ruleNote(output)}.`;
}

/** What the agent reads for a deny or ask. */
export function agentMessage(output: PolicyOutput): string {
  if (filled(output.agent_message)) return output.agent_message;
  if (filled(output.user_message)) return output.user_message;
  return output.decision === 'ask'
    ? `Buckler policy${ruleNote(output)} needs the user's confirmation for this action.`
    : `Buckler policy${ruleNote(output)} blocked this action. Do not retry it in another form; ask the user.`;
}

/**
 * Text for the agent's context after a decision that cannot block (a nudge, or anything on
 * an event after the action). Null when there is nothing to say.
 */
export function contextText(output: PolicyOutput): string | null {
  if (filled(output.additional_context)) return output.additional_context;
  if (output.decision === 'deny' || output.decision === 'ask') return agentMessage(output);
  return null;
}

export const TRUNCATION_MARK = '\n[… truncated by Buckler]';

/**
 * `text` cut to at most `max` UTF-16 code units, ending with TRUNCATION_MARK when cut, and
 * never splitting a surrogate pair.
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - TRUNCATION_MARK.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATION_MARK;
}

/**
 * The PolicyOutput for an event Buckler could not check (`reason` says why). Before an
 * action it is a deny (fail closed); after an action it is an allow with nothing to say.
 */
export function failureOutput(reason: string, before: boolean, code = 'driver_error'): PolicyOutput {
  const base: PolicyOutput = { ...allowOutput(), error: { code, message: reason } };
  if (!before) return base;
  return {
    ...base,
    decision: 'deny',
    user_message: `Buckler blocked this action because it could not check it: ${reason}`,
    agent_message:
      `Buckler could not check this action (${reason}), so it was blocked to be safe. ` +
      'Do not retry it in another form; tell the user what happened.',
  };
}

/**
 * The messages of an `ask` in a harness that cannot honour one from a hook (it would hang,
 * or count as a failed hook and let the action run): the ask becomes a deny that says so, and
 * how a person lets the action through.
 */
export function askAsDeny(output: PolicyOutput, harness: string): { person: string; agent: string } {
  const how =
    `${harness} cannot ask you from a hook, so Buckler blocked it. To let it through, run it yourself, ` +
    `or start ${harness} with BUCKLER_BYPASS=1 in its environment.`;
  const person = personMessage(output);
  return {
    // After a multi-line message (one that ends with the `buckler allow` hint) on a line of its own.
    person: `${person}${person.includes('\n') ? '\n' : ' '}${how}`,
    agent: `${agentMessage(output)} It needs the user's confirmation, which ${harness} cannot ask for here, so it was blocked: ask the user to run it or allow it.`,
  };
}
