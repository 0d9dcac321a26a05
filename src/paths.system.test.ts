import { describe, expect, it } from 'vitest';
import { SYSTEM_SETTINGS, isSystemCodeFile, personPaths, resolveSystemPaths, systemEnv } from './paths.ts';

describe('system mode locations (the locked-down install)', () => {
  it.each<[string, NodeJS.Platform, boolean]>([
    ['/opt/buckler/versions/1.0.0/dist/main.cjs', 'linux', true],
    ['/opt/buckler/current/dist/buckler.cjs', 'darwin', true],
    ['/opt/buckler-evil/dist/main.cjs', 'linux', false],
    ['/opt/bucklerx/main.cjs', 'linux', false],
    ['/home/u/.local/share/buckler/current/dist/main.cjs', 'linux', false],
    ['/tmp/opt/buckler/dist/main.cjs', 'linux', false],
    ['/opt/buckler/versions/1/dist/main.cjs', 'win32', false],
  ])('isSystemCodeFile(%j, %s) = %s', (file, platform, want) => {
    expect(isSystemCodeFile(file, platform)).toBe(want);
  });

  it('ignores every location variable and the bypass', () => {
    const env = { HOME: '/home/u', PATH: '/bin', BUCKLER_BYPASS: '1', RETHUNK_ALLOW_SHELL: '1', BUCKLER_CONFIG_HOME: '/x', XDG_STATE_HOME: '/x', XDG_CONFIG_HOME: '/x', BUCKLER_HOOK_DEADLINE_MS: '1', SUDO_UID: '5', BUCKLERX: 'kept' };
    expect(systemEnv(env)).toEqual({ HOME: '/home/u', PATH: '/bin', SUDO_UID: '5', BUCKLERX: 'kept' });
  });

  it('fixes code, config, cache and approvals; only the audit log is the person\'s', () => {
    const ctx = { env: { BUCKLER_STATE_HOME: '/evil', XDG_STATE_HOME: '/evil', BUCKLER_CONFIG_HOME: '/evil' }, platform: 'linux' as const, home: '/home/u' };
    expect(resolveSystemPaths(ctx, 1000)).toEqual({
      dataHome: '/opt/buckler',
      configHome: '/etc/buckler',
      stateHome: '/var/lib/buckler/1000',
      configFile: '/etc/buckler/config.toml',
      rulesDir: '/etc/buckler/rules.d',
      auditLog: '/home/u/.local/state/buckler/audit.jsonl',
      cacheDir: '/opt/buckler/cache',
      versionsDir: '/opt/buckler/versions',
      bundlesDir: '/etc/buckler/bundles',
      current: '/opt/buckler/current',
      binDir: '/opt/buckler/bin',
      launcher: '/opt/buckler/bin/buckler',
      home: '/home/u',
    });
    expect(personPaths(ctx).configFile).toBe('/home/u/.config/buckler/config.toml');
    expect(personPaths(ctx).rulesDir).toBe('/home/u/.config/buckler/rules.d');
  });

  // One source: the harness records' `system` (files.linux, lockedDown); setup.sh mirrors it (paths.parity.test.ts).
  it('wires exactly the system-level files the harness records mark for this mode', () => {
    expect(SYSTEM_SETTINGS).toEqual({
      cursor: '/etc/cursor/hooks.json',
      'claude-code': '/etc/claude-code/managed-settings.json',
      codex: null,
      'gemini-cli': '/etc/gemini-cli/settings.json',
      'copilot-cli': null,
      'factory-droid': '/etc/factory/settings.json',
      'qwen-code': '/etc/qwen-code/settings.json',
      opencode: null,
      'kilo-code': null,
    });
  });
});
