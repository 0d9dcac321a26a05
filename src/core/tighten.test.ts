/**
 * Tighten-only rules (untrusted project rules, docs/project-rules.md): they compete only among
 * themselves, and a command takes their decision only when it is more severe than what the
 * ordinary rules decided; their priority never outranks an ordinary rule. PolicyInput JSON and a
 * small compiled policy, nothing else.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import { POLICY_IO_VERSION, type Decision } from './contract.ts';
import { evaluate } from './evaluate.ts';
import { parsePolicyInput } from './input.ts';
import { POLICY_FORMAT, type CompiledPolicy, type CompiledRule } from './policy.ts';

function rule(id: string, action: Decision, priority: number, program: string | null, tighten = false): CompiledRule {
  const r: CompiledRule = {
    id,
    pack: id.split('/')[0]!,
    triggers: ['pre_shell_exec'],
    action,
    priority,
    tier: 'baseline',
    shell_segments: program === null ? null : [{ program: [program] }],
    tool_name: null,
    env: null,
    user_message: null,
    agent_message: null,
    additional_context: null,
  };
  if (tighten) r.tighten = true;
  return r;
}

const policy = (rules: CompiledRule[]): CompiledPolicy => ({ policy_format: POLICY_FORMAT, tier: 'baseline', packs: [], rules, grammars: BUILTIN_GRAMMARS, env_keys: [] });
const input = (command: string) => parsePolicyInput({ policy_io_version: POLICY_IO_VERSION, trigger: 'pre_shell_exec', shell: { command, cwd: '/p' } });

const CASES: Array<{ name: string; rules: CompiledRule[]; command: string; decision: Decision; rule: string | null }> = [
  { name: 'a tighten-only deny applies where nothing else matches', rules: [rule('p/no-make', 'deny', 0, 'make', true)], command: 'make deploy', decision: 'deny', rule: 'p/no-make' },
  {
    name: 'a tighten-only deny beats an ordinary allow of higher priority',
    rules: [rule('u/allow-make', 'allow', 100, 'make'), rule('p/no-make', 'deny', 0, 'make', true)],
    command: 'make',
    decision: 'deny',
    rule: 'p/no-make',
  },
  {
    name: 'a tighten-only nudge of priority 1000 does not undo an ordinary deny',
    rules: [rule('b/no-git', 'deny', 0, 'git'), rule('p/nudge-git', 'nudge', 1000, 'git', true)],
    command: 'git push',
    decision: 'deny',
    rule: 'b/no-git',
  },
  {
    name: 'a tighten-only ask does not replace an ordinary deny of lower priority',
    rules: [rule('b/no-git', 'deny', 1, 'git'), rule('p/ask-git', 'ask', 999, 'git', true)],
    command: 'git status',
    decision: 'deny',
    rule: 'b/no-git',
  },
  {
    name: 'a tighten-only allow (never compiled so, but) changes nothing',
    rules: [rule('b/ask-git', 'ask', 0, 'git'), rule('p/allow-git', 'allow', 999, 'git', true)],
    command: 'git status',
    decision: 'ask',
    rule: 'b/ask-git',
  },
  {
    name: 'among tighten-only rules, priority still orders them',
    rules: [rule('p/ask-make', 'ask', 10, 'make', true), rule('p/deny-make', 'deny', 0, 'make', true)],
    command: 'make',
    decision: 'ask',
    rule: 'p/ask-make',
  },
  {
    name: 'a tighten-only rule that looks at no command still only tightens',
    rules: [rule('u/allow-ls', 'allow', 100, 'ls'), rule('p/ask-all', 'ask', 0, null, true)],
    command: 'ls',
    decision: 'ask',
    rule: 'p/ask-all',
  },
  {
    name: 'an ordinary rule that looks at no command is not undone by a tighten-only one',
    rules: [rule('b/deny-all', 'deny', 0, null), rule('p/nudge-all', 'nudge', 500, null, true)],
    command: 'ls',
    decision: 'deny',
    rule: 'b/deny-all',
  },
];

describe('tighten-only rules', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const out = evaluate(input(c.command), policy(c.rules));
      expect([out.decision, out.rule]).toEqual([c.decision, c.rule]);
    });
  }
});
