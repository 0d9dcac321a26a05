/**
 * The core alone: PolicyInput JSON fixtures (fixtures/inputs/*.json) against a compiled policy
 * fixture (fixtures/policy.json), and the table of what each must give. No harness, no packs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import type { Decision, PolicyOutput } from './contract.ts';
import { evaluate, judgedPaths } from './evaluate.ts';
import type { Judged } from './messages.ts';
import { parsePolicyInput } from './input.ts';
import type { CompiledPolicy } from './policy.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const policyFixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures/policy.json'), 'utf8')) as CompiledPolicy;
const policy: CompiledPolicy = { ...policyFixture, grammars: { ...BUILTIN_GRAMMARS } };

export function loadInput(name: string) {
  return parsePolicyInput(JSON.parse(fs.readFileSync(path.join(here, 'fixtures/inputs', `${name}.json`), 'utf8')));
}

interface Expect {
  decision: Decision;
  rule: string | null;
  bypass?: boolean;
  error?: string;
  /** [decision, rule] of each command, in order. */
  commands?: Array<[Decision, string | null]>;
  user_message?: string | null;
  agent_message?: string | null;
  additional_context?: string | null;
}

const EXPECTED: Record<string, Expect> = {
  'commit-deny': {
    decision: 'deny',
    rule: 't/no-commit',
    commands: [['deny', 't/no-commit']],
    user_message: 'Blocked git commit -m x.',
    agent_message: 'Do not commit (t/no-commit).',
    additional_context: null,
  },
  'commit-global-options': { decision: 'deny', rule: 't/no-commit', commands: [['allow', 't/allow-amend'], ['deny', 't/no-commit']] },
  'line-most-severe': { decision: 'deny', rule: 't/no-commit', commands: [['nudge', 't/add'], ['deny', 't/no-commit']], additional_context: null },
  'user-allow-one-command': { decision: 'deny', rule: 't/no-commit', commands: [['allow', 't/allow-amend'], ['deny', 't/no-commit']] },
  'user-allow-alone': { decision: 'allow', rule: 't/allow-amend', commands: [['allow', 't/allow-amend']], user_message: null },
  'priority-beats-severity': { decision: 'allow', rule: 't/rm-interactive' },
  'priority-lower': { decision: 'deny', rule: 't/rm' },
  'severity-tie': { decision: 'deny', rule: 't/no-force', commands: [['deny', 't/no-force']] },
  'ask-alone': {
    decision: 'ask',
    rule: 't/ask-push',
    user_message: 'Push?',
    agent_message: '`git push origin main` needs the confirmation of a person (rule t/ask-push).',
  },
  'refspec-force': { decision: 'deny', rule: 't/no-force' },
  'refspec-delete': { decision: 'deny', rule: 't/no-delete-ref' },
  'refspec-matching': { decision: 'ask', rule: 't/ask-push' },
  'gh-api-delete': { decision: 'deny', rule: 't/no-api-delete' },
  'gh-api-get': { decision: 'allow', rule: null },
  'nudges-joined': {
    decision: 'nudge',
    rule: 't/add',
    commands: [['nudge', 't/add'], ['nudge', 't/status'], ['nudge', 't/add']],
    additional_context: 'Review what git add src staged.\n\nStatus is read-only.\n\nReview what git add docs staged.',
  },
  bypass: { decision: 'allow', rule: null, bypass: true, commands: [] },
  'bypass-legacy': { decision: 'allow', rule: null, bypass: true },
  'bypass-zero': { decision: 'deny', rule: 't/no-commit', bypass: false },
  'bypass-empty': { decision: 'deny', rule: 't/no-commit', bypass: false },
  'bypass-true-word': { decision: 'deny', rule: 't/no-commit', bypass: false },
  'bypass-in-text': { decision: 'deny', rule: 't/no-commit', bypass: false },
  'bypass-env-in-text': { decision: 'deny', rule: 't/no-commit', bypass: false },
  'bypass-post': { decision: 'nudge', rule: 't/after-git', bypass: false, additional_context: 'Leave commits to a person.' },
  'bypass-parse-error': { decision: 'allow', rule: null, bypass: true },
  'parse-error-pre': { decision: 'deny', rule: null, error: 'parse_error', commands: [] },
  'parse-error-subst': { decision: 'deny', rule: null, error: 'parse_error' },
  'parse-error-tool': { decision: 'deny', rule: null, error: 'parse_error' },
  'parse-error-post': { decision: 'allow', rule: null, error: 'parse_error' },
  'env-rule': { decision: 'deny', rule: 't/freeze', agent_message: 'Deploy freeze: run nothing.' },
  'env-rule-other-value': { decision: 'allow', rule: null },
  'env-rule-every-command': { decision: 'deny', rule: 't/freeze', commands: [['deny', 't/freeze'], ['deny', 't/freeze']] },
  'tool-only-deny': { decision: 'deny', rule: 't/no-write', commands: [], user_message: 'No Write.' },
  'tool-only-allow': { decision: 'allow', rule: null, commands: [] },
  'no-shell-segments-rule': { decision: 'allow', rule: null, commands: [] },
  'unknown-event': { decision: 'allow', rule: null, commands: [['allow', null]] },
  template: { decision: 'nudge', rule: 't/template', additional_context: "git tag in t by t/template: git tag '{rule}' {unknown}" },
  'empty-command': { decision: 'allow', rule: null, commands: [] },
  'empty-command-env': { decision: 'deny', rule: 't/freeze', commands: [] },
  'comment-only': { decision: 'allow', rule: null, commands: [] },
  'quoted-data': { decision: 'allow', rule: null },
  'heredoc-data': { decision: 'allow', rule: null },
  substitution: { decision: 'deny', rule: 't/no-commit' },
  'line-continuation': { decision: 'deny', rule: 't/no-commit' },
  'opaque-program': { decision: 'ask', rule: 't/opaque', user_message: 'Cannot tell what $GIT commit -m x runs.' },
  'opaque-harmless': { decision: 'allow', rule: null },
  'dynamic-subcommand': { decision: 'ask', rule: 't/opaque' },
  'dynamic-positional': { decision: 'ask', rule: 't/ask-push' },
  'grammar-positional-subcommand': { decision: 'deny', rule: 't/stash-drop' },
  'shell-alias': { decision: 'deny', rule: 't/no-commit' },
  'program-aliases': { decision: 'deny', rule: 't/no-commit', commands: [['allow', null], ['deny', 't/no-commit']] },
  'program-aliases-benign': { decision: 'nudge', rule: 't/status' },
  'post-nudge': { decision: 'nudge', rule: 't/after-git' },
  'post-failure': { decision: 'allow', rule: null },
};

const fixtureNames = fs
  .readdirSync(path.join(here, 'fixtures/inputs'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

describe('evaluate: PolicyInput fixtures', () => {
  it('every fixture has an expectation and every expectation a fixture', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(fixtureNames);
  });

  it.each(fixtureNames)('%s', (name) => {
    const want = EXPECTED[name]!;
    const out: PolicyOutput = evaluate(loadInput(name), policy);
    expect(out.policy_io_version).toBe('1');
    expect(out.decision).toBe(want.decision);
    expect(out.rule).toBe(want.rule);
    expect(out.bypass).toBe(want.bypass ?? false);
    expect(out.error?.code).toBe(want.error);
    if (want.commands) expect(out.commands.map((c) => [c.decision, c.rule])).toEqual(want.commands);
    for (const key of ['user_message', 'agent_message', 'additional_context'] as const) {
      if (want[key] !== undefined) expect(out[key]).toBe(want[key]);
    }
    if (out.decision === 'deny') {
      expect(out.user_message).toBeTruthy();
      expect(out.agent_message).toBeTruthy();
    }
  });
});

describe('evaluate: details', () => {
  it('says why a line could not be parsed', () => {
    const out = evaluate(loadInput('parse-error-pre'), policy);
    expect(out.agent_message).toMatch(/could not be parsed/);
    expect(out.agent_message).toMatch(/quote/);
    expect(out.error?.message).toBeTruthy();
  });

  it('denies nesting deeper than 8 levels before an action', () => {
    let line = 'git status';
    for (let i = 0; i < 10; i++) line = `echo "$(${line})"`;
    const out = evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: line } }, policy);
    expect(out.decision).toBe('deny');
    expect(out.error?.code).toBe('parse_error');
  });

  it('lists each command with its wrappers and opacity', () => {
    const sub = evaluate(loadInput('substitution'), policy);
    const git = sub.commands.find((c) => c.argv[0] === 'git');
    expect(git?.via?.length).toBeGreaterThan(0);
    const opaque = evaluate(loadInput('opaque-program'), policy);
    expect(opaque.commands[0]?.opaque).toBe(true);
  });

  it('reports commands found through an inline shell alias', () => {
    const out = evaluate(loadInput('shell-alias'), policy);
    const inner = out.commands.find((c) => c.decision === 'deny');
    expect(inner?.argv.slice(0, 2)).toEqual(['git', 'commit']);
    expect(inner?.via).toContain('git alias x');
  });

  it('is pure: the same input gives the same output, and the input is not changed', () => {
    const input = loadInput('nudges-joined');
    const copy = structuredClone(input);
    expect(evaluate(input, policy)).toEqual(evaluate(input, policy));
    expect(input).toEqual(copy);
  });

  it('a deny rule without messages still says what was blocked', () => {
    const bare: CompiledPolicy = {
      ...policy,
      rules: [{ ...policy.rules[0]!, user_message: null, agent_message: null }],
    };
    const out = evaluate(loadInput('commit-deny'), bare);
    expect(out.user_message).toBe('Buckler blocked `git commit -m x` (rule t/no-commit).');
    expect(out.agent_message).toMatch(/^Blocked by the policy rule t\/no-commit: `git commit -m x` is not allowed here/);
  });

  it('shortens a very long command in messages', () => {
    const out = evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: `git commit -m ${'x'.repeat(5000)}` } }, policy);
    expect(out.user_message!.length).toBeLessThan(260);
    expect(out.user_message).toContain('…');
  });

  // The hook's audit of a deny takes the paths from the first evaluation's judged commands
  // (src/cli/driver.ts decidedPaths): they must be what deciding again with `paths` lists.
  it.each([
    'rm -rf /tmp/x ./build && cat ~/.ssh/id_rsa > out.txt',
    'git commit -m x; cp a b; ln -s ~ h && rm -rf h/',
    'git push --force origin main',
    'echo hi | tee -a /etc/hosts',
    'ls -la',
  ])('judgedPaths lists what evaluate with paths lists: %s', (command) => {
    const input = parsePolicyInput({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command, cwd: '/home/u/p' }, context: { home: '/home/u', project_roots: ['/home/u/p'] } });
    let judged: readonly Judged[] | undefined;
    evaluate(input, policy, { onDecided: (j) => (judged = j) });
    const again = evaluate(input, policy, { paths: true }).commands.flatMap((c) => c.paths ?? []);
    expect(judged).toBeDefined();
    expect(judgedPaths(judged!)).toEqual(again);
  });

  it('judgedPaths finds paths in the table above (the test compares something)', () => {
    const input = parsePolicyInput({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'rm -rf /tmp/x', cwd: '/home/u/p' } });
    let judged: readonly Judged[] | undefined;
    evaluate(input, policy, { onDecided: (j) => (judged = j) });
    expect(judgedPaths(judged!).map((p) => p.path)).toContain('/tmp/x');
  });
});
