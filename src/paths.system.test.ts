import { describe, expect, it } from 'vitest';
import { SYSTEM_SETTINGS, isSystemCodeFile, personPaths, resolveSystemPaths, systemEnv, systemWithheld } from './paths.ts';

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

  // [system] allow_bypass / allow_location_variables: each lets exactly its variables through.
  it.each<[string, { bypass?: boolean; locationVariables?: boolean }, string[]]>([
    ['nothing allowed', {}, ['HOME', 'SUDO_UID']],
    ['the bypass', { bypass: true }, ['HOME', 'SUDO_UID', 'BUCKLER_BYPASS', 'RETHUNK_ALLOW_SHELL']],
    ['the location variables', { locationVariables: true }, ['HOME', 'SUDO_UID', 'BUCKLER_CONFIG_HOME', 'BUCKLER_STATE_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME']],
    ['both', { bypass: true, locationVariables: true }, ['HOME', 'SUDO_UID', 'BUCKLER_BYPASS', 'RETHUNK_ALLOW_SHELL', 'BUCKLER_CONFIG_HOME', 'BUCKLER_STATE_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME']],
  ])('systemEnv with %s', (_n, allows, want) => {
    const env = { HOME: '/h', SUDO_UID: '5', BUCKLER_BYPASS: '1', RETHUNK_ALLOW_SHELL: '1', BUCKLER_CONFIG_HOME: '/c', BUCKLER_STATE_HOME: '/s', XDG_CONFIG_HOME: '/x', XDG_STATE_HOME: '/y', BUCKLER_HOOK_DEADLINE_MS: '1', BUCKLER_MANAGED_ROOT: '/m', BUCKLER_DRIVER: 'cursor' };
    expect(Object.keys(systemEnv(env, allows)).sort()).toEqual([...want].sort());
    // What is withheld and what is kept make up the whole environment.
    expect({ ...systemEnv(env), ...systemWithheld(env) }).toEqual(env);
  });

  it('the person\'s locations follow the location variables only when asked to', () => {
    const ctx = { env: { XDG_CONFIG_HOME: '/x', BUCKLER_STATE_HOME: '/s', BUCKLER_MANAGED_ROOT: '/m' }, platform: 'linux' as const, home: '/home/u' };
    expect(personPaths(ctx).configFile).toBe('/home/u/.config/buckler/config.toml');
    expect(personPaths(ctx, true).configFile).toBe('/x/buckler/config.toml');
    expect(resolveSystemPaths(ctx, 7, true).auditLog).toBe('/s/audit.jsonl');
    expect(resolveSystemPaths(ctx, 7, true).configFile).toBe('/etc/buckler/config.toml');
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
