import { describe, expect, it } from 'vitest';
import type { PolicyOutput } from '../core/contract.ts';
import { askAsDeny } from './reply.ts';

const ask = (user: string): PolicyOutput => ({
  policy_io_version: '1',
  decision: 'ask',
  user_message: user,
  agent_message: 'agent text',
  additional_context: null,
  rule: 'p/r',
  bypass: false,
  commands: [],
});

describe('askAsDeny', () => {
  it('a one-line message and the explanation share the line', () => {
    expect(askAsDeny(ask('Asks first.'), 'Codex').person).toBe(
      'Asks first. Codex cannot ask you from a hook, so Buckler blocked it. To let it through, run it yourself, or start Codex with BUCKLER_BYPASS=1 in its environment.',
    );
  });
  it('after a multi-line message (the allow hint) the explanation starts a line of its own', () => {
    const person = askAsDeny(ask('Asks first.\nTo let it run once, run in your own terminal:\n  buckler allow --project /p -- git x'), 'Codex').person;
    expect(person.split('\n')).toEqual([
      'Asks first.',
      'To let it run once, run in your own terminal:',
      '  buckler allow --project /p -- git x',
      'Codex cannot ask you from a hook, so Buckler blocked it. To let it through, run it yourself, or start Codex with BUCKLER_BYPASS=1 in its environment.',
    ]);
  });
});
