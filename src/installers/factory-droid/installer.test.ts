import { describe, expect, it } from 'vitest';
import { factoryDroidInstaller as droid } from './installer.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver factory-droid";
const fmt = { matcher: 'Edit|Create', hooks: [{ type: 'command', command: 'npx prettier --write', timeout: 30 }] };
const pre = { matcher: '^(Execute|Create|Edit|MultiEdit|Read|ApplyPatch|mcp__.+)$', hooks: [{ type: 'command', command: CMD, timeout: 10 }] };
const post = { matcher: '^Execute$', hooks: [{ type: 'command', command: CMD, timeout: 10 }] };

describe('factory-droid installer', () => {
  it('adds matcher groups with a timeout in seconds, keeps hooksDisabled and other entries, strips back', () => {
    const before = { model: 'x', hooks: { hooksDisabled: false, PostToolUse: [fmt] } };
    const { value } = droid.wire(before, CMD);
    expect(value).toEqual({ model: 'x', hooks: { hooksDisabled: false, PostToolUse: [fmt, post], PreToolUse: [pre] } });
    expect(droid.wire(value, CMD).changes).toEqual([]);
    expect(droid.unwire(value).value).toEqual(before);
  });

  it('warns when hooks are disabled, and of nothing else (folder trust gates only the TUI, which asks before any tool runs)', () => {
    expect(droid.warnings({})).toEqual([]);
    expect(droid.warnings({ hooks: { hooksDisabled: false } })).toEqual([]);
    expect(droid.warnings({ hooks: { hooksDisabled: true } })).toEqual([expect.stringContaining('hooksDisabled')]);
  });

  it('declares hooks.hooksDisabled as an off switch for doctor', () => {
    expect(droid.offSwitches.map((s) => [s.key, s.value])).toEqual([['hooks.hooksDisabled', true]]);
  });
});
