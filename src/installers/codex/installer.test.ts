import { describe, it, expect } from 'vitest';
import { codexInstaller as codex } from './installer.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver codex";
const OLD = "'/usr/bin/node' '/old/dist/buckler.cjs' --driver codex";
const notify = { type: 'command', command: './notify.sh', timeout: 5 };
const theirs = { matcher: 'Bash', hooks: [notify] };
const pre = { matcher: '^(Bash|apply_patch|mcp__.+)$', hooks: [{ type: 'command', command: CMD, timeout: 10 }] };
const post = { matcher: '^Bash$', hooks: [{ type: 'command', command: CMD, timeout: 10 }] };

describe('codex wire', () => {
  it('adds one matcher group per event to an empty hooks.json, with only Codex handler keys', () => {
    const { value, changes } = codex.wire(codex.emptyConfig(), CMD);
    expect(value).toEqual({ hooks: { PreToolUse: [pre], PostToolUse: [post] } });
    expect(changes.map((c) => `${c.op} ${c.event}`)).toEqual(['add PreToolUse', 'add PostToolUse']);
    // Codex parses handlers strictly: no Claude-only keys such as onFailure.
    expect(JSON.stringify(value)).not.toContain('onFailure');
  });

  it('leaves other hooks and keys alone, in order, and is idempotent', () => {
    const before = { hooks: { PreToolUse: [theirs], Stop: [{ hooks: [notify] }] }, x: 1 };
    const once = codex.wire(before, CMD).value;
    expect(once).toEqual({ hooks: { PreToolUse: [theirs, pre], Stop: [{ hooks: [notify] }], PostToolUse: [post] }, x: 1 });
    expect(codex.wire(once, CMD).changes).toEqual([]);
  });

  it('replaces its entry in place when the command moves', () => {
    const before = { hooks: { PreToolUse: [theirs, { matcher: 'Bash', hooks: [{ type: 'command', command: OLD, timeout: 600 }] }] } };
    const { value, changes } = codex.wire(before, CMD);
    expect((value.hooks as Record<string, unknown>).PreToolUse).toEqual([theirs, pre]);
    expect(changes[0]).toMatchObject({ op: 'replace', event: 'PreToolUse', previous: OLD });
  });
});

describe('codex unwire, find, warnings', () => {
  it('restores what it was given', () => {
    const before = { hooks: { PreToolUse: [theirs] } };
    expect(codex.unwire(codex.wire(before, CMD).value).value).toEqual(before);
    expect(codex.unwire(codex.wire({}, CMD).value).value).toEqual({});
  });

  it('finds its handlers and says which differ from what merge writes', () => {
    const value = { hooks: { PreToolUse: [pre], PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: CMD }] }] } };
    expect(codex.find(value).map((f) => [f.event, f.asWanted])).toEqual([
      ['PreToolUse', true],
      ['PostToolUse', false],
    ]);
  });

  it('has no standing warning: merge records the trust Codex needs (trust.test.ts)', () => {
    expect(codex.warnings({})).toEqual([]);
    expect(codex.trust?.storeFile('/h/.codex')).toBe('/h/.codex/config.toml');
  });

  it.each([
    [[], 'must be a JSON object, found a list'],
    [{ hooks: { PreToolUse: {} } }, '"hooks.PreToolUse" must be a list of matcher groups, found an object'],
  ])('%j is not editable: %s', (value, message) => {
    expect(codex.problem(value)).toBe(message);
  });
});
