/**
 * The driver in-process, with the policy loader and the core replaced: argument and stdin
 * handling, env filtering, and the fail-closed paths that the built command cannot reach on
 * demand (a loader that throws, an unsupported contract version, an internal error).
 * src/cli/driver.e2e.test.ts covers the same ground through the real bundle.
 */
import { describe, expect, it } from 'vitest';
import { PolicyError, type PolicyInput, type PolicyOutput } from '../core/contract.ts';
import { POLICY_FORMAT, type CompiledPolicy } from '../core/policy.ts';
import type { LoadedPolicy } from '../packs/runtime.ts';
import { outputOf } from '../adapters/testing.ts';
import { HARNESS_NAMES } from '../adapters/registry.ts';
import { ADAPTER_BIT, CODE, codeBits, DEFAULT_HOOK_DEADLINE_MS, handleHook, hookDeadlineMs, isCompleteEvent, replyText, runDriver, type DriverDeps } from './driver.ts';
import type { CliIO } from './io.ts';
import { testEnv } from '../test-home.testing.ts';

const POLICY: CompiledPolicy = {
  policy_format: POLICY_FORMAT,
  tier: 'baseline',
  packs: [],
  rules: [],
  grammars: {},
  env_keys: ['FOO', 'BUCKLER_BYPASS', 'RETHUNK_ALLOW_SHELL'],
};
const LOADED: LoadedPolicy = { policy: POLICY, config: { tier: 'baseline', audit_log: false, packs: {} }, warnings: [] };

const CURSOR_SHELL = { hook_event_name: 'beforeShellExecution', command: 'git commit -m x', cwd: '/p', workspace_roots: ['/p'] };
const CURSOR_POST = { hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: { command: 'git push' }, cwd: '/p' };
const CLAUDE_BASH = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command: 'ls' } };
const CLAUDE_POST = { hook_event_name: 'PostToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command: 'ls' } };

interface Run {
  stdout: string;
  stderr: string;
  seen: PolicyInput[];
  output: PolicyOutput;
}

async function run(
  argv: string[],
  stdin: string | Buffer | object,
  opts: { env?: Record<string, string>; deps?: Partial<DriverDeps>; decide?: (i: PolicyInput) => PolicyOutput } = {},
): Promise<Run> {
  const seen: PolicyInput[] = [];
  let stderr = '';
  const outs: string[] = [];
  const deps: DriverDeps = {
    loadPolicy: () => LOADED,
    evaluate: (input) => {
      seen.push(input);
      return (opts.decide ?? (() => outputOf('deny')))(input);
    },
    ...opts.deps,
  };
  const bytes = Buffer.isBuffer(stdin) ? stdin : Buffer.from(typeof stdin === 'string' ? stdin : JSON.stringify(stdin));
  const io = { env: opts.env ?? {}, readStdin: () => bytes, err: (t: string) => void (stderr += t) };
  const result = await handleHook(argv, io, deps);
  outs.push(replyText(result.reply));
  return { stdout: outs.join(''), stderr, seen, output: result.output };
}

/** The one JSON object printed, or null when nothing was. */
function json(r: Run): Record<string, unknown> | null {
  if (r.stdout === '') return null;
  expect(r.stdout.endsWith('\n')).toBe(true);
  expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('choosing the driver', () => {
  it.each([
    [[], {}, CURSOR_SHELL, 'permission'],
    [['--driver', 'claude-code'], {}, CLAUDE_BASH, 'hookSpecificOutput'],
    [['--driver=claude-code'], {}, CLAUDE_BASH, 'hookSpecificOutput'],
    [[], { BUCKLER_DRIVER: 'claude-code' }, CLAUDE_BASH, 'hookSpecificOutput'],
    [['--driver', 'cursor'], { BUCKLER_DRIVER: 'claude-code' }, CURSOR_SHELL, 'permission'],
    [[], { BUCKLER_DRIVER: '' }, CURSOR_SHELL, 'permission'],
  ])('%j with env %j answers in the right shape', async (argv, env, payload, key) => {
    const r = await run(argv, payload, { env });
    expect(json(r)).toHaveProperty(key);
    expect(r.seen).toHaveLength(1);
  });

  it.each([
    [['--driver', 'claude'], CLAUDE_BASH, 'hookSpecificOutput', "unknown driver 'claude'"],
    [['--driver', 'nope'], CURSOR_SHELL, 'permission', "unknown driver 'nope'"],
    [['--driver', 'nope'], 'not json', 'permission', "unknown driver 'nope'"],
    [['--driver'], CLAUDE_BASH, 'hookSpecificOutput', '--driver needs a harness name'],
    [['--driver', 'cursor', '--verbose'], CURSOR_SHELL, 'permission', "unexpected argument '--verbose'"],
    [['--driver', 'toString'], CURSOR_SHELL, 'permission', "unknown driver 'toString'"],
  ])('%j fails closed in the shape of the payload\'s harness', async (argv, payload, key, reason) => {
    const r = await run(argv, payload, { decide: () => outputOf('allow') });
    const reply = json(r);
    expect(reply).toHaveProperty(key);
    expect(r.stdout).toContain(reason);
    expect(r.stderr).toContain(reason);
    expect(r.seen).toHaveLength(0);
  });
});

describe('--event (harnesses whose payload names no event)', () => {
  const COPILOT_PRE = { sessionId: 's', timestamp: 1, cwd: '/p', toolName: 'bash', toolArgs: { command: 'ls' } };
  it('adds the event under the adapter event field', async () => {
    for (const argv of [['--driver', 'copilot-cli', '--event', 'preToolUse'], ['--event=preToolUse', '--driver=copilot-cli']]) {
      const r = await run(argv, COPILOT_PRE);
      expect(r.seen[0]).toMatchObject({ harness: 'copilot-cli', event: 'preToolUse', trigger: 'pre_shell_tool', shell: { command: 'ls', cwd: '/p' } });
    }
  });
  it('a payload that names the same event is fine; another event is a failure (deny before an action)', async () => {
    expect((await run(['--driver', 'copilot-cli', '--event', 'permissionRequest'], { ...COPILOT_PRE, hookName: 'permissionRequest' })).seen).toHaveLength(1);
    const r = await run(['--driver', 'copilot-cli', '--event', 'preToolUse'], { ...COPILOT_PRE, hookName: 'sessionStart' });
    expect(r.seen).toHaveLength(0);
    expect(r.stderr).toContain('--event preToolUse');
  });
  it.each([
    [['--driver', 'copilot-cli', '--event']],
    [['--driver', 'copilot-cli', '--event', 'pre-tool']],
    [['--driver', 'copilot-cli', '--event', 'a', '--event', 'b']],
    [['--driver', 'cursor', '--driver', 'cursor']],
  ])('%j is a usage failure, denied before an action', async (argv) => {
    const r = await run(argv, COPILOT_PRE);
    expect(r.seen).toHaveLength(0);
    expect(r.output.decision).toBe('deny');
  });
  it('an unreadable payload is answered for the event --event names', async () => {
    const r = await run(['--driver', 'copilot-cli', '--event', 'postToolUse'], '{broken');
    expect(r.stdout).toBe('');
    const pre = await run(['--driver', 'copilot-cli', '--event', 'preToolUse'], '{broken');
    expect(JSON.parse(pre.stdout)).toMatchObject({ permissionDecision: 'deny' });
  });
});

describe('what reaches the core', () => {
  it('only the variables the rules name, and the bypass variables', async () => {
    const env = { FOO: 'x', HOME: '/h', AWS_SECRET_ACCESS_KEY: 's', BUCKLER_BYPASS: '0', PATH: '/bin' };
    const r = await run([], CURSOR_SHELL, { env, decide: () => outputOf('allow') });
    expect(r.seen[0]?.env).toEqual({ FOO: 'x', BUCKLER_BYPASS: '0' });
  });
  it('the adapted input, with harness and event', async () => {
    const r = await run(['--driver', 'claude-code'], CLAUDE_BASH, { decide: () => outputOf('allow') });
    expect(r.seen[0]).toMatchObject({ trigger: 'pre_shell_tool', harness: 'claude-code', event: 'PreToolUse', shell: { command: 'ls' } });
    expect(r.stdout).toBe('');
  });
  it('loader warnings go to stderr, never stdout', async () => {
    const r = await run([], CURSOR_SHELL, {
      deps: { loadPolicy: () => ({ ...LOADED, warnings: ['rules.d/x.yaml: rule r skipped'] }) },
      decide: () => outputOf('allow'),
    });
    expect(r.stderr).toContain('rules.d/x.yaml: rule r skipped');
    expect(r.stdout).toBe('{}\n');
  });
});

describe('failures: deny before an action, no opinion after', () => {
  const boom = (): never => {
    throw new Error('pack cache is corrupt\n    at load (runtime.ts:1:1)');
  };
  const cases: [string, string[], unknown, Partial<DriverDeps>, string, 'deny' | 'pass'][] = [
    ['loader throws (Cursor, before)', [], CURSOR_SHELL, { loadPolicy: boom }, 'pack cache is corrupt', 'deny'],
    ['loader throws (Cursor, after)', [], CURSOR_POST, { loadPolicy: boom }, 'pack cache is corrupt', 'pass'],
    ['loader throws (Claude Code, before)', ['--driver', 'claude-code'], CLAUDE_BASH, { loadPolicy: boom }, 'pack cache is corrupt', 'deny'],
    ['loader throws (Claude Code, after)', ['--driver', 'claude-code'], CLAUDE_POST, { loadPolicy: boom }, 'pack cache is corrupt', 'pass'],
    [
      'the core rejects the contract version',
      [],
      CURSOR_SHELL,
      {
        evaluate: () => {
          throw new PolicyError('unsupported_version', 'unsupported policy_io_version "2" (this Buckler reads "1")');
        },
      },
      'unsupported policy_io_version',
      'deny',
    ],
    [
      'the core rejects the contract version (Claude Code)',
      ['--driver', 'claude-code'],
      CLAUDE_BASH,
      {
        evaluate: () => {
          throw new PolicyError('unsupported_version', 'unsupported policy_io_version "2" (this Buckler reads "1")');
        },
      },
      'unsupported policy_io_version',
      'deny',
    ],
    ['the core throws', [], CURSOR_SHELL, { evaluate: boom }, 'internal error: pack cache is corrupt', 'deny'],
  ];
  it.each(cases)('%s', async (_name, argv, payload, deps, reason, want) => {
    const r = await run(argv, payload as object, { deps });
    const reply = json(r);
    expect(r.stderr).toContain(reason);
    expect(r.stdout).not.toContain('runtime.ts:1:1');
    if (want === 'pass') {
      expect(reply === null || Object.keys(reply).length === 0).toBe(true);
    } else {
      expect(r.stdout).toContain(reason);
      expect(r.output.decision).toBe('deny');
      expect(r.output.error?.message).toContain(reason);
    }
  });

  it.each([
    ['empty stdin', '', 'stdin was empty'],
    ['whitespace only', ' \n\t', 'stdin was empty'],
    ['invalid JSON', '{"hook_event_name": "beforeShellExecution", ', 'not valid JSON'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'not valid UTF-8'],
    ['a JSON array', '[]', 'JSON array'],
    ['a JSON string', '"beforeShellExecution"', 'JSON string'],
  ])('%s → deny, never reaching the core', async (_n, stdin, reason) => {
    const r = await run([], stdin, { decide: () => outputOf('allow') });
    expect(json(r)).toMatchObject({ permission: 'deny' });
    expect(r.stdout).toContain(reason);
    expect(r.seen).toHaveLength(0);
  });

  it.each([
    ['a byte-order mark before the JSON', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(CURSOR_SHELL))]), 'git commit -m x'],
    ['a real U+FFFD in the command (valid UTF-8)', JSON.stringify({ ...CURSOR_SHELL, command: 'echo \uFFFD' }), 'echo \uFFFD'],
    ['multi-byte UTF-8 in the command', JSON.stringify({ ...CURSOR_SHELL, command: 'echo héllo 日本' }), 'echo héllo 日本'],
  ])('%s is read and reaches the core', async (_n, stdin, command) => {
    const r = await run([], stdin, { decide: () => outputOf('allow') });
    expect(json(r)).toEqual({});
    expect(r.seen.map((i) => i.shell?.command)).toEqual([command]);
  });

  it('invalid JSON whose event is readable as after an action → no opinion', async () => {
    const cut = JSON.stringify(CURSOR_POST).slice(0, -5);
    expect(json(await run([], cut))).toEqual({});
    const cutClaude = JSON.stringify(CLAUDE_POST).slice(0, -5);
    expect((await run(['--driver', 'claude-code'], cutClaude)).stdout).toBe('');
  });
  it('invalid JSON whose event is before an action, or ambiguous → deny', async () => {
    expect(json(await run([], JSON.stringify(CURSOR_SHELL).slice(0, -3)))).toMatchObject({ permission: 'deny' });
    const twoEvents = '{"hook_event_name":"postToolUse","hook_event_name":"preToolUse",';
    expect(json(await run([], twoEvents))).toMatchObject({ permission: 'deny' });
    // A command that spells the pair cannot fake it: its quotes are escaped in JSON.
    const spoof = `{"hook_event_name":"preToolUse","tool_input":{"command":"x\\",\\"hook_event_name\\":\\"postToolUse"`;
    expect(json(await run([], spoof))).toMatchObject({ permission: 'deny' });
  });
  it('invalid UTF-8 in a Claude Code payload → a Claude Code deny', async () => {
    const bytes = Buffer.concat([Buffer.from('{"hook_event_name":"PreToolUse","tool_input":{"command":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    const reply = json(await run(['--driver', 'claude-code'], bytes));
    expect(reply).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
  });
});

describe('the operator bypass', () => {
  it('lets a failure before an action through, and says so', async () => {
    const r = await run([], '', { env: { BUCKLER_BYPASS: '1' } });
    expect(json(r)).toEqual({});
    expect(r.output.bypass).toBe(true);
    expect(r.stderr).toContain('operator bypass');
  });
  it.each(['0', '', 'yes', 'true'])('BUCKLER_BYPASS=%j is no bypass', async (v) => {
    expect(json(await run([], '', { env: { BUCKLER_BYPASS: v } }))).toMatchObject({ permission: 'deny' });
  });
  it('RETHUNK_ALLOW_SHELL=1 is the older name for it', async () => {
    expect(json(await run([], '', { env: { RETHUNK_ALLOW_SHELL: '1' } }))).toEqual({});
  });
});

describe('stderr', () => {
  it('a stderr that cannot be written does not change the reply', async () => {
    const io = {
      // The real loader runs (it reads the config to know whether to audit): sandbox locations.
      env: testEnv(),
      readStdin: () => Buffer.from(''),
      err: () => {
        throw new Error('EPIPE');
      },
    };
    expect((await handleHook([], io)).reply.stdout).toMatchObject({ permission: 'deny' });
  });
});

describe('runDriver', () => {
  it('prints with one write and returns the reply exit code', async () => {
    const writes: string[] = [];
    const io: CliIO = {
      env: { ...testEnv(), BUCKLER_DRIVER: 'claude-code' },
      cwd: '/',
      stdoutIsTTY: false,
      stdinIsTTY: false,
      readStdin: () => Buffer.from('[1,2]'),
      out: (t) => writes.push(t),
      err: () => undefined,
    };
    // Nothing to keep in a code cache: the payload was refused before any policy was read.
    expect(await runDriver([], io)).toEqual({ exitCode: 0, code: 0, abandoned: false });
    expect(writes).toHaveLength(1);
    expect(JSON.parse(writes[0] ?? '')).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});

describe('codeBits: the parts of the hook path a run went through (for the code cache)', () => {
  const CACHED = { ...LOADED, cached: true };
  const bit = (harness: string): number => 1 << (ADAPTER_BIT + HARNESS_NAMES.indexOf(harness));
  const decided = async (harness: string, payload: object, decision: PolicyOutput['decision'], loaded: LoadedPolicy = CACHED) =>
    handleHook(['--driver', harness], { env: {}, readStdin: () => Buffer.from(JSON.stringify(payload)), err: () => undefined }, { loadPolicy: () => loaded, evaluate: () => outputOf(decision) });
  const CURSOR_READ = { hook_event_name: 'beforeReadFile', file_path: '/p/a.ts', content: '', workspace_roots: ['/p'] };

  it.each([
    ['cursor shell allow', 'cursor', CURSOR_SHELL, 'allow', CODE.shell | bit('cursor')],
    ['cursor shell deny', 'cursor', CURSOR_SHELL, 'deny', CODE.shell | CODE.blocked | bit('cursor')],
    ['cursor shell ask', 'cursor', CURSOR_SHELL, 'ask', CODE.shell | CODE.blocked | bit('cursor')],
    ['cursor file read allow', 'cursor', CURSOR_READ, 'allow', CODE.file | bit('cursor')],
    ['cursor after a tool', 'cursor', CURSOR_POST, 'allow', CODE.post | bit('cursor')],
    ['claude-code shell allow', 'claude-code', CLAUDE_BASH, 'allow', CODE.shell | bit('claude-code')],
    ['claude-code after a tool', 'claude-code', CLAUDE_POST, 'nudge', CODE.post | bit('claude-code')],
  ] as const)('%s', async (_name, harness, payload, decision, bits) => {
    expect(codeBits(await decided(harness, payload, decision))).toBe(bits);
  });

  it('every harness has a bit of its own, within 32 bits', () => {
    const bits = HARNESS_NAMES.map(bit);
    expect(new Set(bits).size).toBe(HARNESS_NAMES.length);
    expect(ADAPTER_BIT + HARNESS_NAMES.length).toBeLessThanOrEqual(31);
    for (const b of bits) for (const c of Object.values(CODE)) expect(b & c).toBe(0);
  });

  it('0 for a run not to keep: the packs compiled (not from their cache), a failure, an unreadable event', async () => {
    expect(codeBits(await decided('cursor', CURSOR_SHELL, 'allow', LOADED))).toBe(0);
    const failed = await handleHook(['--driver', 'cursor'], { env: {}, readStdin: () => Buffer.from('{'), err: () => undefined }, { loadPolicy: () => CACHED, evaluate: () => outputOf('allow') });
    expect(codeBits(failed)).toBe(0);
    const thrown = await handleHook(['--driver', 'cursor'], { env: {}, readStdin: () => Buffer.from(JSON.stringify(CURSOR_SHELL)), err: () => undefined }, {
      loadPolicy: () => CACHED,
      evaluate: () => {
        throw new Error('boom');
      },
    });
    expect(codeBits(thrown)).toBe(0);
  });
});

describe('the hook deadline', () => {
  it.each([
    [undefined, DEFAULT_HOOK_DEADLINE_MS],
    ['250', 250],
    ['1', 1],
    ['600000', 600000],
    ['0', DEFAULT_HOOK_DEADLINE_MS],
    ['600001', DEFAULT_HOOK_DEADLINE_MS],
    ['-5', DEFAULT_HOOK_DEADLINE_MS],
    ['1e3', DEFAULT_HOOK_DEADLINE_MS],
    ['soon', DEFAULT_HOOK_DEADLINE_MS],
    ['', DEFAULT_HOOK_DEADLINE_MS],
  ])('BUCKLER_HOOK_DEADLINE_MS=%j → %d ms', (v, want) => {
    expect(hookDeadlineMs(v === undefined ? {} : { BUCKLER_HOOK_DEADLINE_MS: v })).toBe(want);
  });

  it('is below the timeout the installers write for every harness', async () => {
    const { CURSOR_TIMEOUT_S } = await import('../installers/cursor/wiring.ts');
    const { CLAUDE_TIMEOUT_S } = await import('../installers/claude-code/wiring.ts');
    expect(DEFAULT_HOOK_DEADLINE_MS).toBeLessThan(Math.min(CURSOR_TIMEOUT_S, CLAUDE_TIMEOUT_S) * 1000);
  });

  it.each([
    ['{"a":1}', true],
    ['{"a":1}\n', true],
    ['\ufeff{"a":1}', true],
    ['{"a":{"b":1}}  \r\n', true],
    ['{"a":', false],
    ['{"a":"}', false],
    ['{"a":1}{', false],
    ['[1,2]', false], // not an object: read to the end of input
    ['', false],
    ['   ', false],
  ])('isCompleteEvent(%j) → %s', (text, want) => {
    expect(isCompleteEvent(Buffer.from(text))).toBe(want);
  });

  it('stdin still open at the deadline: a deny that says so before an action, with what had arrived', async () => {
    const text = JSON.stringify(CLAUDE_BASH).slice(0, 30);
    const io = {
      env: { BUCKLER_HOOK_DEADLINE_MS: '40' },
      readStdin: () => Buffer.from(''),
      readStdinUntil: (_complete: (b: Buffer) => boolean, ms: number) => {
        expect(ms).toBe(40);
        return { bytes: Buffer.from(text), timedOut: true };
      },
      err: () => undefined,
    };
    const r = await handleHook(['--driver', 'claude-code'], io, { loadPolicy: () => LOADED, evaluate: () => outputOf('allow') });
    expect(r.output).toMatchObject({ decision: 'deny', error: { code: 'deadline' } });
    expect(r.output.error?.message).toBe('no complete hook event on stdin within 40 ms (30 bytes arrived and stdin stayed open)');
    expect(r.abandoned).toBe(true);
  });

  it('a policy that does not load in time: a deny before an action, no opinion after', async () => {
    const never = (): Promise<LoadedPolicy> => new Promise(() => undefined);
    const pre = await run([], CURSOR_SHELL, { env: { BUCKLER_HOOK_DEADLINE_MS: '30' }, deps: { loadPolicy: never } });
    expect(pre.output).toMatchObject({ decision: 'deny', error: { code: 'deadline' } });
    expect(json(pre)).toMatchObject({ permission: 'deny' });
    const post = await run([], CURSOR_POST, { env: { BUCKLER_HOOK_DEADLINE_MS: '30' }, deps: { loadPolicy: never } });
    expect(post.output).toMatchObject({ decision: 'allow', error: { code: 'deadline' } });
    expect(json(post)).toEqual({});
  });

  it('the reader is asked to stop at a whole event', async () => {
    let asked: ((b: Buffer) => boolean) | undefined;
    const io = {
      env: {},
      readStdin: () => Buffer.from(''),
      readStdinUntil: (complete: (b: Buffer) => boolean) => {
        asked = complete;
        return { bytes: Buffer.from(JSON.stringify(CURSOR_SHELL)), timedOut: false };
      },
      err: () => undefined,
    };
    const r = await handleHook([], io, { loadPolicy: () => LOADED, evaluate: () => outputOf('deny') });
    expect(r.abandoned).toBeUndefined();
    expect(asked?.(Buffer.from('{"hook_event_name":'))).toBe(false);
    expect(asked?.(Buffer.from(JSON.stringify(CURSOR_SHELL)))).toBe(true);
  });
});
