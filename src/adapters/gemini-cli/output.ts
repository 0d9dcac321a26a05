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
import { contextReply, denial, eventShape, type ShapeSpec } from '../claude-shaped.ts';
import { contextText } from '../reply.ts';
import { GEMINI_EVENTS } from './types.ts';

type Shape =
  | 'tool' // BeforeTool: decision deny + reason
  | 'prompt' // BeforeAgent: decision deny blocks the prompt; additionalContext
  | 'context' // AfterTool: additionalContext only (a deny there would replace the tool result)
  | 'none' // nothing Buckler uses
  | 'unknown'; // newer than 0.61.0: the universal deny

const SHAPES: ShapeSpec<Shape> = {
  events: GEMINI_EVENTS,
  shapes: { BeforeTool: 'tool', BeforeAgent: 'prompt', AfterTool: 'context' },
  unreadable: { event: 'BeforeTool', shape: 'tool' },
  unknown: 'unknown',
};

export function geminiIsBeforeAction(raw: unknown): boolean {
  const { shape } = eventShape(raw, SHAPES);
  return shape !== 'context' && shape !== 'none';
}

function reply(output: PolicyOutput, event: string, shape: Shape): Record<string, unknown> | null {
  const denied = denial(output, 'Gemini CLI');
  switch (shape) {
    case 'context':
      return contextReply(event, contextText(output));
    case 'none':
      return null;
    case 'prompt':
      if (denied !== null) return { decision: 'deny', reason: denied.person };
      return output.decision === 'nudge' ? contextReply(event, output.additional_context) : null;
    case 'tool':
    case 'unknown':
      // BeforeTool has no way to add context for the model; a nudge says nothing there.
      return denied === null ? null : { decision: 'deny', reason: denied.agent, systemMessage: denied.person };
  }
}

export function adaptGeminiOutput(output: PolicyOutput, raw: unknown): NativeReply {
  const { event, shape } = eventShape(raw, SHAPES);
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
