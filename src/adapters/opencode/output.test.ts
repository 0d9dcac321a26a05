import { describe, expect, it } from 'vitest';
import { outputOf } from '../testing.ts';
import { adaptOpencodeOutput, opencodeIsBeforeAction, opencodeIsBlocking } from './output.ts';

const pre = { hook_event_name: 'tool.execute.before', tool: 'bash', args: { command: 'x' } };
const post = { ...pre, hook_event_name: 'tool.execute.after' };

describe('opencode output', () => {
  it('denies with decision and the reason the model reads, exit 0', () => {
    const r = adaptOpencodeOutput(outputOf('deny'), pre);
    expect(r).toEqual({ stdout: { decision: 'deny', reason: 'agent: deny' }, exitCode: 0 });
    expect(opencodeIsBlocking(r)).toBe(true);
  });

  it('sends an ask as a deny that says how a person lets it through', () => {
    const r = adaptOpencodeOutput(outputOf('ask'), pre);
    expect(opencodeIsBlocking(r)).toBe(true);
    expect(String(r.stdout?.reason)).toContain('OpenCode cannot ask you from a hook');
    expect(String(r.stdout?.reason)).toContain('BUCKLER_BYPASS=1');
  });

  it('a nudge before is context, allow is nothing', () => {
    expect(adaptOpencodeOutput(outputOf('nudge'), pre).stdout).toEqual({ context: 'context: nudge' });
    expect(adaptOpencodeOutput(outputOf('allow'), pre).stdout).toBeNull();
  });

  it('never blocks after an action: a deny there is context for the model', () => {
    expect(opencodeIsBeforeAction(post)).toBe(false);
    const r = adaptOpencodeOutput(outputOf('deny'), post);
    expect(r.stdout).toEqual({ context: 'agent: deny' });
    expect(opencodeIsBlocking(r)).toBe(false);
  });

  it('reads replies as the plugin does: a non-zero exit blocks before a call', () => {
    expect(opencodeIsBlocking({ stdout: null, exitCode: 2 })).toBe(true);
    expect(opencodeIsBlocking({ stdout: { context: 'x' }, exitCode: 0 })).toBe(false);
  });
});
