/**
 * An event whose name the adapter does not know, carrying a tool call and no result, is a
 * pre-action (shared spec default-packs.md): refused as `unknown_event` and answered with the
 * failure deny, in every adapter. With a result, or without a tool input, it stays
 * `unknown_harness_event`; a name the harness does send is never refused this way.
 */
import { describe, expect, it } from 'vitest';
import { PolicyError, type PolicyInput } from '../core/contract.ts';
import { ADAPTERS } from './registry.ts';

type Payload = Record<string, unknown>;
/** One harness family's payload shape: a tool call, the same with its result, the same without input. */
interface Shape {
  call(event: string): Payload;
  result: Payload;
  dropInput: string;
}

const CLAUDE: Shape = {
  call: (event) => ({ hook_event_name: event, session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command: 'git push --force' } }),
  result: { tool_response: { stdout: '' } },
  dropInput: 'tool_input',
};
const SHAPES: Record<string, Shape> = {
  'claude-code': CLAUDE,
  codex: CLAUDE,
  'gemini-cli': CLAUDE,
  'qwen-code': CLAUDE,
  'factory-droid': CLAUDE,
  cursor: {
    call: (event) => ({ hook_event_name: event, conversation_id: 'c', cwd: '/p', workspace_roots: ['/p'], tool_name: 'Shell', tool_input: { command: 'git push --force' } }),
    result: { tool_output: '' },
    dropInput: 'tool_input',
  },
  'copilot-cli': {
    // toolArgs is JSON text, as on preToolUse.
    call: (event) => ({ hookName: event, sessionId: 's', cwd: '/p', toolName: 'bash', toolArgs: '{"command":"git push --force"}' }),
    result: { toolResult: { resultType: 'success' } },
    dropInput: 'toolArgs',
  },
  opencode: {
    call: (event) => ({ hook_event_name: event, tool: 'bash', sessionID: 's', callID: 'c', args: { command: 'git push --force' } }),
    result: { exit: 0 },
    dropInput: 'args',
  },
};
SHAPES['kilo-code'] = SHAPES['opencode']!;

const NEW_EVENT = 'BeforeSomethingNew';

function refusal(fn: () => PolicyInput): PolicyError | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof PolicyError && e.code === 'unknown_event' ? e : undefined;
  }
}

describe('every adapter has a payload shape here', () => {
  it('the table covers the registry', () => expect(Object.keys(SHAPES).sort()).toEqual(Object.keys(ADAPTERS).sort()));
});

describe.each(Object.values(ADAPTERS).map((a) => [a.name, a] as const))('%s: an unknown event', (name, adapter) => {
  const shape = SHAPES[name]!;

  it('carrying a tool call and no result: refused as unknown_event, and the failure reply denies with the reason', () => {
    const raw = shape.call(NEW_EVENT);
    const e = refusal(() => adapter.adaptInput(raw));
    expect(e, 'refused').toBeDefined();
    expect(e!.message).toContain(`"${NEW_EVENT}"`);
    // What was read goes with it, for the audit record.
    expect(e!.input).toMatchObject({ harness: name, event: NEW_EVENT, trigger: 'unknown_harness_event' });
    expect(e!.input?.tool?.input).toEqual({ command: 'git push --force' });
    expect(adapter.isBeforeAction(raw)).toBe(true);
    const { reply, output, before } = adapter.failureReply({ code: e!.code, reason: e!.message }, { raw }, false);
    expect(before).toBe(true);
    expect(output.decision).toBe('deny');
    expect(adapter.isBlocking(reply)).toBe(true);
    expect(JSON.stringify(reply.stdout)).toContain(NEW_EVENT);
    // The operator bypass lets it through, as any failure before an action.
    expect(adapter.isBlocking(adapter.failureReply({ code: e!.code, reason: e!.message }, { raw }, true).reply)).toBe(false);
  });

  it('with a result: after the tool, unknown_harness_event (look-alike)', () => {
    const input = adapter.adaptInput({ ...shape.call(NEW_EVENT), ...shape.result });
    expect(input.trigger).toBe('unknown_harness_event');
    expect(input.tool?.name).toBeDefined();
  });

  it('a tool name without its input: unknown_harness_event (look-alike)', () => {
    const raw = shape.call(NEW_EVENT);
    delete raw[shape.dropInput];
    expect(adapter.adaptInput(raw).trigger).toBe('unknown_harness_event');
  });

  it('no event the harness sends is refused this way, whatever it carries', () => {
    expect(adapter.events.length).toBeGreaterThan(0);
    for (const event of adapter.events) expect(refusal(() => adapter.adaptInput(shape.call(event))), event).toBeUndefined();
  });
});
