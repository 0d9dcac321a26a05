import { describe, expect, it } from 'vitest';
import { outputOf } from '../../adapters/testing.ts';
import { getAdapter } from '../../adapters/registry.ts';
import type { Adapter } from '../../adapters/adapter.ts';
import type { Decision, PolicyInput } from '../../core/contract.ts';
import { POLICY_FORMAT, type CompiledPolicy } from '../../core/policy.ts';
import type { LoadedPolicy } from '../../packs/runtime.ts';
import { Deadline } from './deadline.ts';
import { allowedEnv, decide, droppedNotice, policyEnv, type DecideRequest } from './decide.ts';
import type { DriverDeps } from './result.ts';

const POLICY: CompiledPolicy = { policy_format: POLICY_FORMAT, tier: 'baseline', packs: [], rules: [], grammars: {}, env_keys: ['FOO'] };
const loaded = (extra: Partial<LoadedPolicy> = {}): LoadedPolicy => ({ policy: POLICY, config: { tier: 'baseline', audit_log: null, packs: {} }, warnings: [], ...extra });
const adapter = (name: string): Adapter => getAdapter(name) as Adapter;

const CURSOR_SHELL = JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'git push', cwd: '/p', workspace_roots: ['/p'] });
const CLAUDE_BASH = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command: 'ls' } });

interface Case {
  name: string;
  harness: string;
  bytes: string;
  decision?: Decision;
  event?: string;
  deps?: Partial<DriverDeps>;
  env?: Record<string, string>;
  /** The reply's stdout. */
  stdout: unknown;
  /** The failure's code, for a failure. */
  error?: string;
}

const req = (c: Case): DecideRequest => ({ adapter: adapter(c.harness), bytes: Buffer.from(c.bytes), env: c.env ?? {}, cwd: '/work', ...(c.event !== undefined && { event: c.event }) });

async function run(c: Case): Promise<{ result: Awaited<ReturnType<typeof decide>>; seen: PolicyInput[]; warnings: string[] }> {
  const seen: PolicyInput[] = [];
  const warnings: string[] = [];
  const deps: DriverDeps = {
    loadPolicy: () => loaded(),
    evaluate: (input) => {
      seen.push(input);
      return outputOf(c.decision ?? 'allow');
    },
    ...c.deps,
  };
  const result = await decide(req(c), { deps, deadline: new Deadline(1000), warn: (t) => void warnings.push(t) });
  return { result, seen, warnings };
}

describe('decide: event bytes and environment → reply', () => {
  const cases: Case[] = [
    { name: 'cursor allow', harness: 'cursor', bytes: CURSOR_SHELL, decision: 'allow', stdout: {} },
    { name: 'cursor deny', harness: 'cursor', bytes: CURSOR_SHELL, decision: 'deny', stdout: { permission: 'deny', user_message: 'person: deny', agent_message: 'agent: deny' } },
    { name: 'claude-code allow: nothing printed', harness: 'claude-code', bytes: CLAUDE_BASH, decision: 'allow', stdout: null },
    { name: 'invalid JSON, before an action', harness: 'cursor', bytes: '{"hook_event_name":"beforeShellExecution",', stdout: expect.objectContaining({ permission: 'deny' }), error: 'bad_json' },
    { name: 'invalid JSON, after an action (the text names it)', harness: 'cursor', bytes: '{"hook_event_name":"postToolUse",', stdout: {}, error: 'bad_json' },
    { name: 'empty', harness: 'claude-code', bytes: ' \n', stdout: expect.objectContaining({ hookSpecificOutput: expect.objectContaining({ permissionDecision: 'deny' }) }), error: 'bad_json' },
    // The payload names the event before an action: a mismatch with --event blocks.
    { name: '--event naming another event', harness: 'claude-code', bytes: CLAUDE_BASH, event: 'PostToolUse', stdout: expect.objectContaining({ hookSpecificOutput: expect.objectContaining({ permissionDecision: 'deny' }) }), error: 'bad_args' },
    {
      name: 'a policy that fails to load',
      harness: 'cursor',
      bytes: CURSOR_SHELL,
      deps: {
        loadPolicy: () => {
          throw new Error('disk on fire');
        },
      },
      stdout: expect.objectContaining({ permission: 'deny', user_message: expect.stringContaining('internal error: disk on fire') }),
      error: 'internal_error',
    },
    { name: 'a failure with the operator bypass set', harness: 'cursor', bytes: '{', env: { BUCKLER_BYPASS: '1' }, stdout: {}, error: 'bad_json' },
  ];
  it.each(cases)('$name', async (c) => {
    const { result } = await run(c);
    expect(result.reply.stdout).toEqual(c.stdout);
    expect(result.reply.exitCode).toBe(0);
    expect(result.output.error?.code).toBe(c.error);
  });

  it('hands the core only the variables the rules name and the bypass, and the action context', async () => {
    const { seen, result } = await run({ name: '', harness: 'cursor', bytes: CURSOR_SHELL, env: { FOO: 'x', SECRET: 'y', BUCKLER_BYPASS: '0', HOME: '/home/u' }, stdout: {} });
    expect(seen[0]?.env).toEqual({ FOO: 'x', BUCKLER_BYPASS: '0' });
    expect(seen[0]?.context?.cwd).toBe('/p');
    expect(result.input).toBe(seen[0]);
  });

  it('keeps what it got to for the audit: the input read and the policy loaded before a later failure', async () => {
    const { result, warnings } = await run({
      name: '',
      harness: 'cursor',
      bytes: CURSOR_SHELL,
      deps: {
        evaluate: () => {
          throw new Error('boom');
        },
      },
      stdout: {},
    });
    expect(result.output.error?.code).toBe('internal_error');
    expect(result.input?.shell?.command).toBe('git push');
    expect(result.loaded).toBeDefined();
    expect(warnings).toEqual(['internal error: boom (blocked)']);
  });

  it('passes the policy warnings on and adds the dropped-rules notice where the harness has a channel', async () => {
    const { result, warnings } = await run({ name: '', harness: 'claude-code', bytes: CLAUDE_BASH, deps: { loadPolicy: () => loaded({ warnings: ['w1'], dropped: ['a.yaml:3 x: bad'] }) }, stdout: {} });
    expect(warnings).toEqual(['w1']);
    expect(result.reply.stdout).toEqual({ systemMessage: droppedNotice(['a.yaml:3 x: bad']) });
  });

  it('lists the paths when every decision is recorded (audit_log = true)', async () => {
    const options: unknown[] = [];
    await run({ name: '', harness: 'cursor', bytes: CURSOR_SHELL, deps: { loadPolicy: () => loaded({ config: { tier: 'baseline', audit_log: true, packs: {} } }), evaluate: (_i, _p, o) => (options.push(o), outputOf('allow')) }, stdout: {} });
    await run({ name: '', harness: 'cursor', bytes: CURSOR_SHELL, deps: { evaluate: (_i, _p, o) => (options.push(o), outputOf('allow')) }, stdout: {} });
    expect(options).toEqual([{ paths: true }, undefined]);
  });
});

// The locked-down install: variables set aside (main.ts) count only when the system config allows them.
describe('decide: the set-aside variables of the locked-down install', () => {
  const WITHHELD = { BUCKLER_BYPASS: '1', XDG_CONFIG_HOME: '/elsewhere', BUCKLER_HOOK_DEADLINE_MS: '1' };
  const sys = (bypass: boolean, location_variables: boolean): LoadedPolicy =>
    loaded({ config: { tier: 'baseline', audit_log: null, packs: {}, ...(bypass || location_variables ? { system_allows: { bypass, location_variables } } : {}) } });

  it.each<[string, boolean, boolean, Record<string, string>, string[]]>([
    ['nothing allowed: the bypass stays out, one load', false, false, {}, ['-']],
    ['the bypass allowed: it reaches the core, one load', true, false, { BUCKLER_BYPASS: '1' }, ['-']],
    // A location variable may move the person's layers: loaded again with it.
    ['the location variables allowed: loaded again with them', false, true, {}, ['-', '/elsewhere']],
  ])('%s', async (_n, bypass, locations, coreEnv, loads) => {
    const seenLoads: string[] = [];
    const seen: PolicyInput[] = [];
    const deps: DriverDeps = {
      loadPolicy: (env) => (seenLoads.push(env['XDG_CONFIG_HOME'] ?? '-'), sys(bypass, locations)),
      evaluate: (input) => (seen.push(input), outputOf('deny')),
    };
    const result = await decide({ adapter: adapter('cursor'), bytes: Buffer.from(CURSOR_SHELL), env: { HOME: '/home/u' }, cwd: '/work', withheld: WITHHELD }, { deps, deadline: new Deadline(1000), warn: () => {} });
    expect(seen[0]?.env).toEqual(coreEnv);
    expect(seenLoads).toEqual(loads);
    // Never a variable the config cannot allow (the deadline), and the audit follows the allowed environment.
    expect(result.env?.['BUCKLER_HOOK_DEADLINE_MS']).toBeUndefined();
    expect(result.env === undefined).toBe(!bypass && !locations);
  });

  it('allowedEnv: only what is allowed comes back', () => {
    expect(allowedEnv({ HOME: '/h' }, WITHHELD, undefined)).toBeUndefined();
    expect(allowedEnv({ HOME: '/h' }, undefined, { bypass: true, location_variables: true })).toBeUndefined();
    expect(allowedEnv({ HOME: '/h' }, WITHHELD, { bypass: true, location_variables: false })).toEqual({ env: { HOME: '/h', BUCKLER_BYPASS: '1' }, moved: false });
    expect(allowedEnv({ HOME: '/h' }, WITHHELD, { bypass: false, location_variables: true })).toEqual({ env: { HOME: '/h', XDG_CONFIG_HOME: '/elsewhere' }, moved: true });
    expect(allowedEnv({ HOME: '/h' }, { BUCKLER_HOOK_DEADLINE_MS: '1' }, { bypass: true, location_variables: true })).toBeUndefined();
  });
});

describe('policyEnv', () => {
  it.each([
    [{ FOO: 'a', BAR: 'b' }, ['FOO'], { FOO: 'a' }],
    [{ BUCKLER_BYPASS: '1' }, [], { BUCKLER_BYPASS: '1' }],
    [{ FOO: undefined }, ['FOO'], {}],
  ] as const)('%j with keys %j', (env, keys, want) => expect(policyEnv(env, keys)).toEqual(want));
});

describe('droppedNotice', () => {
  it.each([
    [['a: x'], 'Buckler: a rule was not loaded and guard nothing: a: x. Run `buckler validate` to see and fix them.'],
    [['a: x', 'b: y', 'c: z'], 'Buckler: 3 rules were not loaded and guard nothing: a: x (and 2 more). Run `buckler validate` to see and fix them.'],
  ])('%j', (dropped, want) => expect(droppedNotice(dropped)).toBe(want));
});
