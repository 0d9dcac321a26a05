/**
 * `argv` (the command's words exactly) and `project` (one of the event's project roots), the
 * conditions `buckler suggest` writes: in the core alone, a compiled policy and PolicyInput JSON.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import { evaluate } from './evaluate.ts';
import { parsePolicyInput } from './input.ts';
import { POLICY_FORMAT, type CompiledPolicy } from './policy.ts';

const policy: CompiledPolicy = {
  policy_format: POLICY_FORMAT,
  tier: 'baseline',
  packs: [{ id: 't', source: 'inline', builtin: false, rules: 1 }],
  grammars: { ...BUILTIN_GRAMMARS },
  env_keys: [],
  rules: [
    {
      id: 't/exact',
      pack: 't',
      triggers: ['pre_shell_exec'],
      action: 'ask',
      priority: 50,
      tier: 'baseline',
      shell_segments: [{ program: ['git'], argv: ['git', 'push', '--force', 'origin', 'main'], project: ['/home/dev/proj'] }],
      tool_name: null,
      env: null,
      user_message: 'x',
      agent_message: null,
      additional_context: null,
    },
  ],
};

function decide(command: string, roots: string[] = ['/home/dev/proj']): string | null {
  const input = parsePolicyInput({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command, cwd: roots[0] ?? '/home/dev' }, context: { home: '/home/dev', project_roots: roots } });
  return evaluate(input, policy).rule;
}

describe('argv and project conditions', () => {
  it.each([
    ['git push --force origin main', 't/exact'],
    ["git push '--force' origin main", 't/exact'],
    ['cd /x && git push --force origin main', 't/exact'],
    ['GIT push --force origin main', 't/exact'],
    // Look-alikes: one word more, one less, another order, another word, a run-time word.
    ['git push --force origin main --tags', null],
    ['git push --force origin', null],
    ['git push origin --force main', null],
    ['git push --force origin master', null],
    ['git push --force origin "$B"', null],
    ['$G push --force origin main', null],
  ])('%s → %s', (command, rule) => {
    expect(decide(command)).toBe(rule);
  });

  it('holds only in the project it names', () => {
    expect(decide('git push --force origin main', ['/home/dev/other'])).toBeNull();
    expect(decide('git push --force origin main', ['/home/dev/proj/sub'])).toBeNull();
  });
});
