/**
 * explain: the trace follows the decision (never decides differently), lists every rule that
 * could apply in precedence order, and says which condition held or failed. PolicyInput JSON
 * fixtures against the compiled policy fixture, as evaluate.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import { evaluate } from './evaluate.ts';
import { explain, type ConditionTrace, type Explanation, type KnownRule } from './explain.ts';
import { parsePolicyInput } from './input.ts';
import type { CompiledPolicy } from './policy.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const policyFixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures/policy.json'), 'utf8')) as CompiledPolicy;
const policy: CompiledPolicy = { ...policyFixture, grammars: { ...BUILTIN_GRAMMARS } };
const loadInput = (name: string) => parsePolicyInput(JSON.parse(fs.readFileSync(path.join(here, 'fixtures/inputs', `${name}.json`), 'utf8')));
const inputs = fs.readdirSync(path.join(here, 'fixtures/inputs')).map((f) => f.replace(/\.json$/, ''));

const shown = (c: ConditionTrace): string => `${c.condition} ${c.held ? '✓' : '✗'}`;
const rulesOf = (x: Explanation, i = 0): Array<[string, string]> => x.commands[i]!.rules.map((r) => [r.rule, r.outcome]);

describe('explain follows the decision', () => {
  it.each(inputs)('%s: the same output as evaluate, and the decisive rule is the one that decides', (name) => {
    const input = loadInput(name);
    const x = explain(input, policy);
    expect(x.output).toEqual(evaluate(input, policy));
    expect(x.decision).toBe(x.output.decision);
    expect(x.rule).toBe(x.output.rule);
    x.commands.forEach((c, i) => {
      expect([c.decision, c.rule]).toEqual([x.output.commands[i]!.decision, x.output.commands[i]!.rule]);
      const deciding = c.rules.filter((r) => r.outcome === 'decides').map((r) => r.rule);
      expect(deciding).toEqual(c.rule === null ? [] : [c.rule]);
    });
    if (x.commands.some((c) => c.decisive && c.rule !== null)) expect(x.commands.find((c) => c.decisive)!.rule).toBe(x.rule);
  });
});

describe('what explain says', () => {
  it('each condition of each applicable rule, in precedence order', () => {
    const x = explain(loadInput('priority-beats-severity'), policy);
    // rm -iv: t/rm-interactive (allow, priority 20) outranks t/rm (deny, priority 10).
    expect(rulesOf(x)).toEqual([
      ['t/opaque', 'no_match'],
      ['t/freeze', 'no_match'],
      ['t/rm-interactive', 'decides'],
      ['t/rm', 'outranked'],
    ]);
    const interactive = x.commands[0]!.rules[2]!;
    expect(interactive.segments![0]!.conditions.map(shown)).toEqual(['program ✓', 'flags_all ✓']);
    expect(x.summary).toBe('allow: rule t/rm-interactive decides the only command');
  });

  it('a failed flags condition says what the command had', () => {
    const x = explain({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'git push -u origin --tags' } }, policy);
    const force = x.commands[0]!.rules.find((r) => r.rule === 't/no-force')!;
    expect(force.outcome).toBe('no_match');
    expect(force.segments![0]!.conditions).toEqual([
      { condition: 'program', expected: ['git'], held: true, saw: ['git'] },
      { condition: 'subcommand', expected: ['push'], held: true, saw: ['push'] },
      { condition: 'flags_any', expected: ['--force'], held: false, saw: ['--set-upstream', '--tags', '-u'] },
    ]);
    expect(rulesOf(x)).toContainEqual(['t/ask-push', 'decides']);
  });

  it('the line takes its most severe command, and says which', () => {
    const x = explain(loadInput('line-most-severe'), policy);
    expect(x.commands.map((c) => [c.decision, c.decisive])).toEqual([
      ['nudge', false],
      ['deny', true],
    ]);
    expect(x.summary).toBe('deny: rule t/no-commit decides command 2 of 2, the most severe decision of the line');
  });

  it('env conditions: the value seen is never shown', () => {
    const x = explain({ ...loadInput('env-rule'), env: { DEPLOY_FREEZE: 'secret-value' } }, policy);
    const freeze = x.commands[0]!.rules.find((r) => r.rule === 't/freeze')!;
    expect(freeze.context).toEqual([{ condition: 'env', expected: ['DEPLOY_FREEZE=1'], held: false, saw: ['DEPLOY_FREEZE set to another value'] }]);
    expect(JSON.stringify(x.commands)).not.toContain('secret-value');
  });

  it('rules not in force are listed with why, and never decide', () => {
    const strict = { ...policy.rules.find((r) => r.id === 't/ask-push')!, id: 't/strict-push', tier: 'strict' as const, action: 'deny' as const };
    const known: KnownRule[] = [
      ...policy.rules.map((rule) => ({ rule, state: 'active' as const, source: '/p/t.yaml', origin: 'user' })),
      { rule: strict, state: 'skipped_tier', source: '/p/t.yaml' },
      { rule: { ...strict, id: 'off/push', pack: 'off' }, state: 'skipped_pack' },
    ];
    const x = explain({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'git push' } }, policy, { known });
    const byId = new Map(x.commands[0]!.rules.map((r) => [r.rule, r]));
    expect(byId.get('t/strict-push')).toMatchObject({ state: 'skipped_tier', matched: true, outcome: 'skipped' });
    expect(byId.get('off/push')).toMatchObject({ state: 'skipped_pack', outcome: 'skipped', source: null });
    expect(byId.get('t/ask-push')).toMatchObject({ outcome: 'decides', source: '/p/t.yaml', origin: 'user' });
    expect(x.decision).toBe('ask');
  });

  it('wrappers the command was found through', () => {
    const x = explain({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: "sudo bash -c 'git commit -m x'" } }, policy);
    const c = x.commands.find((k) => k.read?.program === 'git')!;
    expect(c.via).toEqual(['sudo', 'bash -c']);
    expect(c.rule).toBe('t/no-commit');
  });

  it('an event without a command: the rules that look at none', () => {
    const x = explain({ policy_io_version: '1', trigger: 'pre_shell_tool', tool: { name: 'Write' } }, policy);
    expect(x.commands).toEqual([]);
    expect(x.context_rules.map((r) => [r.rule, r.outcome])).toEqual([['t/no-write', 'decides']]);
    expect(x.summary).toBe('deny: rule t/no-write decides the event');
  });

  it('bypass and parse errors are said, not traced', () => {
    expect(explain(loadInput('bypass'), policy).summary).toMatch(/operator bypass/);
    const bad = explain(loadInput('parse-error-pre'), policy);
    expect(bad.decision).toBe('deny');
    expect(bad.summary).toMatch(/could not be analysed/);
  });
});
