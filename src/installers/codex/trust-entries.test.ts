import { describe, expect, it } from 'vitest';
import { codexHookEntries, codexHookHash, snakeEvent } from './trust-entries.ts';

// currentHash values that `codex app-server` (0.169.0) `hooks/list` reported for these hooks
// (docs/adapters/codex.md; the real-client test compares Buckler's own entries live).
const BASE = { type: 'command', command: 'echo x', timeout: 30 };
describe('codexHookHash: what Codex 0.169.0 reports as currentHash', () => {
  it.each([
    ['base', 'PreToolUse', 'Bash', BASE, '386325ebc6d635023598f537fa3f9a346464b03ad0ff7215fbe0885c2bace1e1'],
    ['keys reordered', 'PreToolUse', 'Bash', { timeout: 30, command: 'echo x', type: 'command' }, '386325ebc6d63502'],
    ['async false said', 'PreToolUse', 'Bash', { ...BASE, async: false }, '386325ebc6d63502'],
    ['commandWindows (not Windows)', 'PreToolUse', 'Bash', { ...BASE, commandWindows: 'echo w' }, '386325ebc6d63502'],
    ['command echo y', 'PreToolUse', 'Bash', { ...BASE, command: 'echo y' }, '49356fb2156500cc'],
    ['timeout 31', 'PreToolUse', 'Bash', { ...BASE, timeout: 31 }, '4d7c955f947cc4b7'],
    ['no timeout = 600', 'PreToolUse', 'Bash', { type: 'command', command: 'echo x' }, 'fbbaf5466635a7a6'],
    ['timeout 600', 'PreToolUse', 'Bash', { ...BASE, timeout: 600 }, 'fbbaf5466635a7a6'],
    ['timeoutSec is not timeout', 'PreToolUse', 'Bash', { type: 'command', command: 'echo x', timeoutSec: 30 }, 'fbbaf5466635a7a6'],
    ['timeout 0 = 1', 'PreToolUse', 'Bash', { ...BASE, timeout: 0 }, '128c333d08e04d7f'],
    ['statusMessage', 'PreToolUse', 'Bash', { ...BASE, statusMessage: 'hi' }, '8747afd360325791'],
    ['async true', 'PreToolUse', 'Bash', { ...BASE, async: true }, 'f9c1b9d0773fdbca'],
    ['additionalContextLimit', 'PreToolUse', 'Bash', { ...BASE, additionalContextLimit: 100 }, 'd5b54e886ceb6c66'],
    ['PostToolUse', 'PostToolUse', 'Bash', BASE, '8d0c3591fa1f769f'],
    ['matcher Bash|Shell', 'PreToolUse', 'Bash|Shell', BASE, 'c4c2'],
    ['no matcher', 'PreToolUse', undefined, BASE, '2b97'],
    ['matcher *', 'PreToolUse', '*', BASE, 'b0b3'],
    ['matcher not trimmed', 'PreToolUse', ' Bash ', BASE, '84a7'],
    ['UserPromptSubmit ignores its matcher', 'UserPromptSubmit', 'Bash', BASE, '2f7b793a20e558b9'],
  ])('%s', (_name, event, matcher, handler, hex) => {
    expect(codexHookHash(event, matcher, handler)).toMatch(new RegExp(`^sha256:${hex}[0-9a-f]*$`));
    expect(codexHookHash(event, matcher, handler)).toHaveLength('sha256:'.length + 64);
  });

  it('look-alikes differ: one space in the command, another event, another matcher', () => {
    const h = codexHookHash('PreToolUse', 'Bash', BASE);
    expect(codexHookHash('PreToolUse', 'Bash', { ...BASE, command: 'echo  x' })).not.toBe(h);
    expect(codexHookHash('PermissionRequest', 'Bash', BASE)).not.toBe(h);
    expect(codexHookHash('PreToolUse', '^Bash$', BASE)).not.toBe(h);
  });
});

describe('snakeEvent', () => {
  it.each([
    ['PreToolUse', 'pre_tool_use'],
    ['PostToolUse', 'post_tool_use'],
    ['PermissionRequest', 'permission_request'],
    ['UserPromptSubmit', 'user_prompt_submit'],
    ['SessionStart', 'session_start'],
    ['Stop', 'stop'],
  ])('%s → %s', (event, snake) => expect(snakeEvent(event)).toBe(snake));
});

describe('codexHookEntries', () => {
  const OWN = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver codex";
  it('keys every command handler by file, event, group and handler index, and marks Buckler', () => {
    const value = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [BASE, { type: 'prompt', prompt: 'x' }, { type: 'command', command: OWN, timeout: 10 }] },
          { matcher: '^(Bash)$', hooks: [{ type: 'command', command: OWN, timeout: 10 }] },
        ],
        Stop: [{ hooks: [BASE] }],
        enabled: true,
      },
    };
    expect(codexHookEntries(value, '/h/.codex/hooks.json').map((e) => [e.key, e.own])).toEqual([
      ['/h/.codex/hooks.json:pre_tool_use:0:0', false],
      ['/h/.codex/hooks.json:pre_tool_use:0:2', true],
      ['/h/.codex/hooks.json:pre_tool_use:1:0', true],
      ['/h/.codex/hooks.json:stop:0:0', false],
    ]);
  });

  it('finds nothing in an empty or hook-less file', () => {
    expect(codexHookEntries(null, '/f')).toEqual([]);
    expect(codexHookEntries({ x: 1 }, '/f')).toEqual([]);
  });
});
