import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyInput, PolicyOutput } from '../core/contract.ts';
import { addEntry, allowCommandText, plainWord, blockingCommands, consume, readStore, revokeEntries, REUSE_MS } from './allow-once.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'allow-once-'));
  file = path.join(dir, 'state', 'allow-once.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const T0 = 1_000_000_000_000;
const input = (generation?: string): PolicyInput => ({
  policy_io_version: '1',
  trigger: 'pre_shell_exec',
  harness: 'cursor',
  shell: { command: 'x' },
  ...(generation ? { session: { conversation_id: 'c', generation_id: generation } } : {}),
});
const ARGV = ['git', 'push', '--force'];

describe('allow-once store', () => {
  it('adds, lists and consumes one use; a used entry never matches again', () => {
    const e = addEntry(file, undefined, { argv: ARGV, project: '/p', uses: 1, ttlMs: 60_000, now: T0 });
    expect(readStore(file, undefined).map((x) => x.id)).toEqual([e.id]);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect((fs.statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe('700');
    expect(consume(file, undefined, input(), '/p', [ARGV], T0 + 1)).toEqual({ ids: [e.id] });
    expect(consume(file, undefined, input(), '/p', [ARGV], T0 + 2)).toBeNull();
  });

  it.each([
    ['another project', '/q', ARGV, T0 + 1],
    ['other words', '/p', ['git', 'push', '-f'], T0 + 1],
    ['expired', '/p', ARGV, T0 + 60_000],
  ])('never matches: %s', (_why, project, argv, now) => {
    addEntry(file, undefined, { argv: ARGV, project, uses: 1, ttlMs: 60_000, now: T0 });
    expect(consume(file, undefined, input(), project === '/q' ? '/p' : '/p', [argv], now)).toBeNull();
  });

  it('one tool call asked twice (same generation) is one use; another generation is another', () => {
    addEntry(file, undefined, { argv: ARGV, project: '/p', uses: 1, ttlMs: 600_000, now: T0 });
    expect(consume(file, undefined, input('g1'), '/p', [ARGV], T0 + 1)).not.toBeNull();
    expect(consume(file, undefined, input('g1'), '/p', [ARGV], T0 + 2)).not.toBeNull();
    expect(consume(file, undefined, input('g2'), '/p', [ARGV], T0 + 3)).toBeNull();
    expect(consume(file, undefined, input('g1'), '/p', [ARGV], T0 + 1 + REUSE_MS)).toBeNull();
  });

  it('all or nothing: a line with two blocked commands needs both', () => {
    addEntry(file, undefined, { argv: ARGV, project: '/p', uses: 1, ttlMs: 60_000, now: T0 });
    expect(consume(file, undefined, input(), '/p', [ARGV, ['rm', '-rf', 'x']], T0 + 1)).toBeNull();
    expect(consume(file, undefined, input(), '/p', [ARGV], T0 + 2)).not.toBeNull();
  });

  it('revokes by id and all', () => {
    const a = addEntry(file, undefined, { argv: ARGV, project: '/p', uses: 1, ttlMs: 60_000, now: T0 });
    addEntry(file, undefined, { argv: ['x'], project: '/p', uses: 1, ttlMs: 60_000, now: T0 });
    expect(revokeEntries(file, undefined, a.id, T0).map((e) => e.id)).toEqual([a.id]);
    expect(revokeEntries(file, undefined, 'all', T0)).toHaveLength(1);
    expect(readStore(file, undefined)).toEqual([]);
  });

  it('refuses a symlinked or malformed store (never follows, never matches)', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const target = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(target, '{"version":1,"entries":[]}');
    fs.symlinkSync(target, file);
    expect(() => consume(file, undefined, input(), '/p', [ARGV], T0)).toThrow(/symbolic link/);
    fs.rmSync(file);
    fs.writeFileSync(file, 'not json', { mode: 0o600 });
    expect(() => readStore(file, undefined)).toThrow(/not valid JSON/);
  });

  it('blockingCommands: only deny/ask commands, none opaque, no line-level decision', () => {
    const out = (commands: PolicyOutput['commands'], decision: PolicyOutput['decision'] = 'deny'): PolicyOutput => ({
      policy_io_version: '1', decision, user_message: null, agent_message: null, additional_context: null, rule: 'r', bypass: false, commands,
    });
    expect(blockingCommands(out([{ argv: ['ls'], decision: 'allow', rule: null }, { argv: ARGV, decision: 'deny', rule: 'r' }]))).toEqual([ARGV]);
    expect(blockingCommands(out([{ argv: ['$X'], decision: 'deny', rule: 'r', opaque: true }]))).toBeNull();
    expect(blockingCommands(out([{ argv: ['ls'], decision: 'allow', rule: null }]))).toBeNull();
    expect(blockingCommands(out([{ argv: ARGV, decision: 'nudge', rule: 'r' }], 'nudge'))).toBeNull();
  });

  it('blockingCommands: a file tool is named by the tool and its absolute paths', () => {
    const out: PolicyOutput = { policy_io_version: '1', decision: 'deny', user_message: null, agent_message: null, additional_context: null, rule: 'r', bypass: false, commands: [{ argv: ['Write'], decision: 'deny', rule: 'r', tool: true }] };
    const input = (p: string): PolicyInput => ({ policy_io_version: '1', trigger: 'pre_shell_tool', tool: { name: 'Write', paths: [{ path: p, access: 'write' }] }, context: { cwd: '/w/proj' } }) as PolicyInput;
    expect(blockingCommands(out, input('/etc/hosts'))).toEqual([['Write', '/etc/hosts']]);
    expect(blockingCommands(out, input('notes/a.md'))).toEqual([['Write', '/w/proj/notes/a.md']]);
    expect(blockingCommands(out, input('/etc/hosts'))).not.toEqual(blockingCommands(out, input('/etc/sudoers')));
  });

  it('the command to copy quotes words for a shell', () => {
    expect(allowCommandText('/my proj', [['rm', '-rf', "it's"]])).toBe(`buckler allow --project '/my proj' -- rm -rf 'it'\\''s'`);
  });
});

describe('applyAllowOnce (the driver side)', () => {
  const deny = (agent: string | null): PolicyOutput => ({
    policy_io_version: '1', decision: 'deny', user_message: 'Blocked for you.', agent_message: agent, additional_context: null, rule: 'p/r', bypass: false,
    commands: [{ argv: ARGV, decision: 'deny', rule: 'p/r' }],
  });
  const shellInput = (): PolicyInput => ({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'git push --force', cwd: path.join(dir, 'proj') } });

  it('adds the line to copy to the person\'s message only; the agent keeps its message (or the person\'s, without the hint)', async () => {
    const { applyAllowOnce } = await import('./allow-apply.ts');
    fs.mkdirSync(path.join(dir, 'proj', '.git'), { recursive: true });
    const env = { HOME: path.join(dir, 'home'), BUCKLER_STATE_HOME: path.join(dir, 'state') };
    const warn = (): void => undefined;
    const a = applyAllowOnce(shellInput(), deny('For the agent.'), env, warn).output;
    expect(a.user_message).toBe(`Blocked for you.\nTo let it run once, run in your own terminal:\n  buckler allow --project ${path.join(dir, 'proj')} -- git push --force`);
    expect(a.agent_message).toBe('For the agent.');
    const b = applyAllowOnce(shellInput(), deny(null), env, warn).output;
    expect(b.agent_message).toBe('Blocked for you.');
    expect(b.decision).toBe('deny');
    addEntry(file, undefined, { argv: ARGV, project: path.join(dir, 'proj'), uses: 1, ttlMs: 60_000, now: Date.now() });
    const c = applyAllowOnce(shellInput(), deny(null), env, warn);
    expect(c.output.decision).toBe('allow');
    expect(c.allowOnce).toMatchObject({ was: 'deny', project: path.join(dir, 'proj') });
  });
});

describe('plainWord matches the expression it replaces', () => {
  const RE = /^[A-Za-z0-9_@%+=:,./-]+$/;
  it('on every printable ASCII character and a few more', () => {
    for (let c = 0; c < 256; c++) {
      const ch = String.fromCharCode(c);
      expect(plainWord(ch), JSON.stringify(ch)).toBe(RE.test(ch));
      expect(plainWord(`a${ch}b`), JSON.stringify(ch)).toBe(RE.test(`a${ch}b`));
    }
    expect(plainWord('')).toBe(false);
  });
});
