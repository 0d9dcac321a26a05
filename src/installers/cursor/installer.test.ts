import { describe, it, expect } from 'vitest';
import { cursorInstaller as cursor } from './installer.ts';
import { CURSOR_HOOKS } from './wiring.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver cursor";
const OLD = "'/usr/local/bin/node' '/old/buckler/dist/buckler.cjs' --driver cursor";
const theirs = { command: './hooks/audit.sh', timeout: 5 };
const prompt = { type: 'prompt', prompt: 'Is this safe?' };

describe('cursor wire', () => {
  it('adds the six hooks to an empty config, with only keys Cursor knows', () => {
    const { value, changes } = cursor.wire(cursor.emptyConfig(), CMD);
    expect(changes.map((c) => [c.op, c.event])).toEqual(CURSOR_HOOKS.map((h) => ['add', h.event]));
    expect(value).toEqual({
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: CMD, timeout: 10, failClosed: true }],
        preToolUse: [{ command: CMD, matcher: '^(Shell|Write|Delete|Grep)$', timeout: 10, failClosed: true }],
        beforeReadFile: [{ command: CMD, timeout: 10, failClosed: true }],
        beforeMCPExecution: [{ command: CMD, timeout: 10, failClosed: true }],
        postToolUse: [{ command: CMD, matcher: 'Shell', timeout: 10 }],
        postToolUseFailure: [{ command: CMD, matcher: 'Shell', timeout: 10 }],
      },
    });
    // The preToolUse matcher, as Cursor tests it (un-anchored RegExp on tool_name).
    const m = new RegExp(CURSOR_HOOKS.find((h) => h.event === 'preToolUse')?.matcher ?? '');
    for (const t of ['Shell', 'Write', 'Delete', 'Grep']) expect(m.test(t), t).toBe(true);
    for (const t of ['Read', 'WriteShellStdin', 'MCP:Write', 'List', 'Fetch']) expect(m.test(t), t).toBe(false);
    const known = new Set(['type', 'command', 'prompt', 'model', 'matcher', 'timeout', 'loop_limit', 'failClosed']);
    for (const list of Object.values(value.hooks as Record<string, object[]>)) {
      for (const entry of list) for (const k of Object.keys(entry)) expect(known).toContain(k);
    }
    for (const h of CURSOR_HOOKS) expect(h.timeout).toBeLessThan(60);
  });

  it('keeps other hooks and keys in their places and order', () => {
    const before = {
      version: 1,
      extra: { keep: true },
      hooks: { stop: [theirs], beforeShellExecution: [theirs, prompt], afterFileEdit: [theirs] },
      zlast: 1,
    };
    const { value } = cursor.wire(before, CMD);
    expect(Object.keys(value)).toEqual(['version', 'extra', 'hooks', 'zlast']);
    const hooks = value.hooks as Record<string, unknown[]>;
    expect(Object.keys(hooks)).toEqual([
      'stop',
      'beforeShellExecution',
      'afterFileEdit',
      'preToolUse',
      'beforeReadFile',
      'beforeMCPExecution',
      'postToolUse',
      'postToolUseFailure',
    ]);
    expect(hooks.stop).toEqual([theirs]);
    expect(hooks.beforeShellExecution).toEqual([theirs, prompt, { command: CMD, timeout: 10, failClosed: true }]);
    expect(hooks.afterFileEdit).toEqual([theirs]);
    expect(before.hooks.beforeShellExecution).toEqual([theirs, prompt]);
  });

  it('changes nothing the second time', () => {
    const once = cursor.wire({ version: 1, hooks: { stop: [theirs] } }, CMD).value;
    const twice = cursor.wire(once, CMD);
    expect(twice.changes).toEqual([]);
    expect(twice.value).toBe(once);
  });

  it('replaces its entry in place when the install path changes, and drops stale ones', () => {
    const before = {
      version: 1,
      hooks: {
        beforeShellExecution: [theirs, { command: OLD, timeout: 30 }, { command: 'buckler --driver cursor' }],
        afterShellExecution: [{ command: OLD }],
        beforeMCPExecution: [{ command: OLD }, theirs],
      },
    };
    const { value, changes } = cursor.wire(before, CMD);
    const hooks = value.hooks as Record<string, unknown[]>;
    expect(hooks.beforeShellExecution).toEqual([theirs, { command: CMD, timeout: 10, failClosed: true }]);
    expect(hooks.afterShellExecution).toBeUndefined();
    expect(hooks.beforeMCPExecution).toEqual([{ command: CMD, timeout: 10, failClosed: true }, theirs]);
    expect(changes).toContainEqual({ op: 'replace', event: 'beforeShellExecution', command: CMD, previous: OLD });
    expect(changes).toContainEqual({ op: 'replace', event: 'beforeMCPExecution', command: CMD, previous: OLD });
    expect(changes).toContainEqual({ op: 'remove', event: 'beforeShellExecution', command: 'buckler --driver cursor' });
    expect(changes).toContainEqual({ op: 'remove', event: 'afterShellExecution', command: OLD });
    const all = JSON.stringify(value);
    expect(all.split(CMD).length - 1).toBe(6);
    expect(all).not.toContain('/old/');
  });

  it('never takes an entry that is not a command hook', () => {
    const before = { version: 1, hooks: { preToolUse: [{ type: 'prompt', prompt: 'buckler --driver cursor', command: 'buckler' }] } };
    const { value } = cursor.wire(before, CMD);
    expect((value.hooks as Record<string, unknown[]>).preToolUse).toHaveLength(2);
  });
});

describe('cursor unwire', () => {
  it('removes only Buckler entries, and event lists that only held them', () => {
    const wired = cursor.wire({ version: 1, hooks: { stop: [theirs], beforeShellExecution: [theirs] } }, CMD).value;
    const { value, changes } = cursor.unwire(wired);
    expect(value).toEqual({ version: 1, hooks: { stop: [theirs], beforeShellExecution: [theirs] } });
    expect(changes.every((c) => c.op === 'remove')).toBe(true);
    expect(changes).toHaveLength(6);
  });

  it('upgrades the shell-only wiring of earlier versions in place, once', () => {
    const old = {
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: CMD, timeout: 10, failClosed: true }],
        preToolUse: [theirs, { command: CMD, matcher: 'Shell', timeout: 10, failClosed: true }],
        postToolUse: [{ command: CMD, matcher: 'Shell', timeout: 10 }],
        postToolUseFailure: [{ command: CMD, matcher: 'Shell', timeout: 10 }],
      },
    };
    const { value, changes } = cursor.wire(old, CMD);
    expect(changes.map((c) => `${c.op} ${c.event}`)).toEqual(['replace preToolUse', 'add beforeReadFile', 'add beforeMCPExecution']);
    expect((value.hooks as Record<string, unknown[]>).preToolUse).toEqual([
      theirs,
      { command: CMD, matcher: '^(Shell|Write|Delete|Grep)$', timeout: 10, failClosed: true },
    ]);
    expect(cursor.wire(value, CMD).changes).toEqual([]);
  });

  it('keeps an empty list it did not empty', () => {
    const before = { version: 1, hooks: { stop: [] } };
    expect(cursor.unwire(before)).toEqual({ value: before, changes: [] });
  });
});

describe('cursor problem', () => {
  it.each([
    [[], 'must be a JSON object, found a list'],
    ['x', 'must be a JSON object, found a string'],
    [{ version: '1' }, '"version" must be a positive integer, found a string'],
    [{ version: 2 }, '"version": 2 is not a hooks.json version Buckler knows (1)'],
    [{ version: 1, hooks: [] }, '"hooks" must be an object keyed by event name, found a list'],
    [{ version: 1, hooks: null }, '"hooks" must be an object keyed by event name, found null'],
    [{ version: 1, hooks: { stop: {} } }, '"hooks.stop" must be a list of hooks, found an object'],
  ])('%j → %s', (value, message) => {
    expect(cursor.problem(value)).toBe(message);
  });

  it('accepts a config without hooks or version (and warns about the version)', () => {
    expect(cursor.problem({})).toBeNull();
    expect(cursor.warnings({})).toEqual(['has no "version": 1; Cursor may refuse to load it']);
  });
});

describe('cursor find', () => {
  it('reports each Buckler entry and whether it is exactly as merge writes it', () => {
    const value = {
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: CMD, timeout: 10, failClosed: true }],
        preToolUse: [{ command: OLD, matcher: 'Shell', timeout: 10 }],
        stop: [theirs],
      },
    };
    expect(cursor.find(value)).toEqual([
      { event: 'beforeShellExecution', command: CMD, files: ['/usr/bin/node', '/opt/buckler/dist/buckler.cjs'], asWanted: true },
      { event: 'preToolUse', matcher: 'Shell', command: OLD, files: ['/usr/local/bin/node', '/old/buckler/dist/buckler.cjs'], asWanted: false },
    ]);
  });
});
