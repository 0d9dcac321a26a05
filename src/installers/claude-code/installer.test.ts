import { describe, it, expect } from 'vitest';
import { claudeCodeInstaller as claude } from './installer.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver claude-code";
const OLD = "'/usr/bin/node' '/old/dist/buckler.cjs' --driver claude-code";
const lint = { type: 'command', command: 'npm run lint', timeout: 60 };
const mine = { matcher: 'Write|Edit', hooks: [lint] };

const TOOLS = 'Bash|PowerShell|Read|Write|Edit|MultiEdit|NotebookEdit|Grep|Glob';
const preHandler = { type: 'command', command: CMD, timeout: 10, onFailure: 'block' };
const pre = { matcher: TOOLS, hooks: [preHandler] };
const preMcp = { matcher: 'mcp__.*', hooks: [preHandler] };
const post = { matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: CMD, timeout: 10 }] };

describe('claude-code wire', () => {
  it('adds one matcher group per event to empty settings', () => {
    const { value, changes } = claude.wire(claude.emptyConfig(), CMD);
    expect(value).toEqual({ hooks: { PreToolUse: [pre, preMcp], PostToolUse: [post], PostToolUseFailure: [post] } });
    expect(changes.map((c) => `${c.op} ${c.event} ${c.matcher}`)).toEqual([
      `add PreToolUse ${TOOLS}`,
      'add PreToolUse mcp__.*',
      'add PostToolUse Bash|PowerShell',
      'add PostToolUseFailure Bash|PowerShell',
    ]);
  });

  it('leaves every other settings key and hook alone, in order', () => {
    const before = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: { PostToolUse: [mine], Stop: [{ hooks: [lint] }] },
      env: { A: '1' },
      model: 'opus',
    };
    const { value } = claude.wire(before, CMD);
    expect(Object.keys(value)).toEqual(['permissions', 'hooks', 'env', 'model']);
    expect(value.hooks).toEqual({
      PostToolUse: [mine, post],
      Stop: [{ hooks: [lint] }],
      PreToolUse: [pre, preMcp],
      PostToolUseFailure: [post],
    });
  });

  it('changes nothing the second time', () => {
    const once = claude.wire({ model: 'x' }, CMD).value;
    expect(claude.wire(once, CMD)).toEqual({ value: once, changes: [] });
  });

  it('replaces its group in place when the path changes', () => {
    const before = {
      hooks: {
        PreToolUse: [mine, { matcher: 'Bash', hooks: [{ type: 'command', command: OLD, timeout: 30 }] }, mine],
      },
    };
    const { value, changes } = claude.wire(before, CMD);
    expect((value.hooks as Record<string, unknown>).PreToolUse).toEqual([mine, pre, mine, preMcp]);
    expect(changes[0]).toEqual({ op: 'replace', event: 'PreToolUse', matcher: TOOLS, command: CMD, previous: OLD });
  });

  it('upgrades the shell-only wiring of earlier versions in place, once', () => {
    const old = { matcher: 'Bash|PowerShell', hooks: [preHandler] };
    const before = { hooks: { PreToolUse: [mine, old, mine], PostToolUse: [post], PostToolUseFailure: [post] } };
    const { value, changes } = claude.wire(before, CMD);
    expect((value.hooks as Record<string, unknown>).PreToolUse).toEqual([mine, pre, mine, preMcp]);
    expect(changes.map((c) => `${c.op} ${c.event} ${c.matcher}`)).toEqual([`replace PreToolUse ${TOOLS}`, 'add PreToolUse mcp__.*']);
    expect(claude.wire(value, CMD).changes).toEqual([]);
  });

  it('keeps each group where it is when both are there in another order', () => {
    const before = { hooks: { PreToolUse: [preMcp, mine, pre], PostToolUse: [post], PostToolUseFailure: [post] } };
    expect(claude.wire(before, CMD)).toEqual({ value: before, changes: [] });
  });

  it('upgrades two old groups of its own to the two groups it wants, and drops a third', () => {
    const a = { matcher: 'Bash', hooks: [{ type: 'command', command: OLD }] };
    const b = { matcher: 'mcp__.*', hooks: [{ type: 'command', command: OLD }] };
    const c = { matcher: 'Write', hooks: [{ type: 'command', command: OLD }] };
    const { value, changes } = claude.wire({ hooks: { PreToolUse: [a, b, c] } }, CMD);
    expect((value.hooks as Record<string, unknown>).PreToolUse).toEqual([pre, preMcp]);
    expect(changes.filter((x) => x.event === 'PreToolUse').map((x) => x.op)).toEqual(['replace', 'replace', 'remove']);
  });

  it('takes its handler out of a group it shares with other hooks', () => {
    const shared = { matcher: 'Bash', hooks: [lint, { type: 'command', command: OLD }] };
    const { value } = claude.wire({ hooks: { PreToolUse: [shared] } }, CMD);
    expect((value.hooks as Record<string, unknown>).PreToolUse).toEqual([{ matcher: 'Bash', hooks: [lint] }, pre, preMcp]);
  });

  it('replaces its handler inside a shared group that has its matcher', () => {
    const shared = { matcher: TOOLS, hooks: [lint, { type: 'command', command: OLD }], extra: 1 };
    const { value } = claude.wire({ hooks: { PreToolUse: [shared] } }, CMD);
    expect((value.hooks as Record<string, unknown>).PreToolUse).toEqual([{ matcher: TOOLS, hooks: [lint, preHandler], extra: 1 }, preMcp]);
  });

  it('recognises an exec-form handler (command + args)', () => {
    const execForm = { type: 'command', command: '/usr/bin/node', args: ['/old/buckler.cjs', '--driver', 'claude-code'] };
    const { value } = claude.wire({ hooks: { Stop: [{ hooks: [execForm] }] } }, CMD);
    expect((value.hooks as Record<string, unknown>).Stop).toBeUndefined();
  });
});

describe('claude-code unwire', () => {
  it('restores the settings it was given', () => {
    const before = { permissions: {}, hooks: { PostToolUse: [mine] }, model: 'opus' };
    const wired = claude.wire(before, CMD).value;
    expect(claude.unwire(wired).value).toEqual(before);
  });

  it('removes a "hooks" object that only held its hooks', () => {
    const wired = claude.wire({ model: 'opus' }, CMD).value;
    expect(claude.unwire(wired).value).toEqual({ model: 'opus' });
  });

  it('leaves an empty hooks object it did not empty', () => {
    const before = { hooks: {} };
    expect(claude.unwire(before)).toEqual({ value: before, changes: [] });
  });
});

describe('claude-code problem and warnings', () => {
  it.each([
    [null, 'must be a JSON object, found null'],
    [{ hooks: 'x' }, '"hooks" must be an object keyed by event name, found a string'],
    [{ hooks: { PreToolUse: { matcher: 'Bash' } } }, '"hooks.PreToolUse" must be a list of matcher groups, found an object'],
  ])('%j → %s', (value, message) => {
    expect(claude.problem(value)).toBe(message);
  });

  it('warns when hooks are switched off', () => {
    expect(claude.warnings({ disableAllHooks: true })).toHaveLength(1);
    expect(claude.warnings({})).toEqual([]);
  });

  it('finds its handlers and says which differ from what merge writes', () => {
    const old = { matcher: 'Bash|PowerShell', hooks: [preHandler] };
    const value = {
      hooks: { PreToolUse: [pre, preMcp, old], PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: CMD, timeout: 10 }] }] },
    };
    expect(claude.find(value).map((f) => [f.event, f.matcher, f.asWanted])).toEqual([
      ['PreToolUse', TOOLS, true],
      ['PreToolUse', 'mcp__.*', true],
      ['PreToolUse', 'Bash|PowerShell', false],
      ['PostToolUse', 'Bash', false],
    ]);
  });
});
