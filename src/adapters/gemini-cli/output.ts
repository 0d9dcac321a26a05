/**
 * PolicyOutput → Gemini CLI reply (exit 0, JSON on stdout, or nothing). Gemini reads the JSON
 * whatever the exit code. A deny is `{"decision":"deny","reason":A,"systemMessage":P}`, which
 * blocks the one tool call ("Tool execution blocked: A"). Never sent: `continue: false` (it
 * stops the whole agent), `decision: "ask"` (a headless run waits forever for a confirmation
 * it cannot get: Buckler sends a deny that says how to let the call through instead), and
 * `decision: "allow"` (it would not skip Gemini's own policy anyway: "pass" is no output).
 */
import type { PolicyOutput } from '../../core/contract.ts';
import type { NativeReply } from '../adapter.ts';
import { eventNameOf } from '../payload.ts';
import { agentMessage, askAsDeny, contextText, personMessage } from '../reply.ts';
import { GEMINI_EVENTS } from './types.ts';

type Shape =
  | 'tool' // BeforeTool: decision deny + reason
  | 'prompt' // BeforeAgent: decision deny blocks the prompt; additionalContext
  | 'context' // AfterTool: additionalContext only (a deny there would replace the tool result)
  | 'none' // nothing Buckler uses
  | 'unknown'; // newer than 0.61.0: the universal deny

const SHAPES: Readonly<Partial<Record<string, Shape>>> = {
  BeforeTool: 'tool',
  BeforeAgent: 'prompt',
  AfterTool: 'context',
};

function eventOf(raw: unknown): { event: string; shape: Shape } {
  const event = eventNameOf(raw, 'hook_event_name');
  if (event === undefined) return { event: 'BeforeTool', shape: 'tool' };
  if (!(GEMINI_EVENTS as readonly string[]).includes(event)) return { event, shape: 'unknown' };
  return { event, shape: SHAPES[event] ?? 'none' };
}

export function geminiIsBeforeAction(raw: unknown): boolean {
  const { shape } = eventOf(raw);
  return shape !== 'context' && shape !== 'none';
}

function denial(output: PolicyOutput): { person: string; agent: string } | null {
  if (output.decision === 'ask') return askAsDeny(output, 'Gemini CLI');
  if (output.decision === 'deny') return { person: personMessage(output), agent: agentMessage(output) };
  return null;
}

function context(event: string, text: string | null | undefined): Record<string, unknown> | null {
  return text ? { hookSpecificOutput: { hookEventName: event, additionalContext: text } } : null;
}

function reply(output: PolicyOutput, event: string, shape: Shape): Record<string, unknown> | null {
  const denied = denial(output);
  switch (shape) {
    case 'context':
      return context(event, contextText(output));
    case 'none':
      return null;
    case 'prompt':
      if (denied !== null) return { decision: 'deny', reason: denied.person };
      return output.decision === 'nudge' ? context(event, output.additional_context) : null;
    case 'tool':
    case 'unknown':
      // BeforeTool has no way to add context for the model; a nudge says nothing there.
      return denied === null ? null : { decision: 'deny', reason: denied.agent, systemMessage: denied.person };
  }
}

export function adaptGeminiOutput(output: PolicyOutput, raw: unknown): NativeReply {
  const { event, shape } = eventOf(raw);
  return { stdout: reply(output, event, shape), exitCode: 0 };
}

/**
 * Gemini's reading of a reply: `decision` `deny` or `block` (or `ask`, which holds the call
 * for a confirmation) blocks; `continue: false` stops everything; an exit code of 2 or more
 * with no JSON blocks too (plain text becomes the reason).
 */
export function geminiIsBlocking(reply: NativeReply): boolean {
  const o = reply.stdout;
  if (o === null) return reply.exitCode >= 2;
  return o.decision === 'deny' || o.decision === 'block' || o.decision === 'ask' || o.continue === false;
}
