import { describe, expect, it } from 'vitest';
import { harnessConfigFile, harnessHomeDir, harnessManagedFile, harnessSystemFile, homeFromEnv, ignoredVariables, isAbsoluteFor, joinFor, resolvePaths, type Env } from './paths.ts';

const H = '/home/u';
const W = 'C:\\Users\\u';

/** The table docs/paths.md documents: [platform, env, key, expected]. */
const TABLE: [NodeJS.Platform, Env, keyof ReturnType<typeof resolvePaths>, string][] = [
  ['linux', {}, 'dataHome', `${H}/.local/share/buckler`],
  ['linux', {}, 'configHome', `${H}/.config/buckler`],
  ['linux', {}, 'stateHome', `${H}/.local/state/buckler`],
  ['linux', {}, 'configFile', `${H}/.config/buckler/config.toml`],
  ['linux', {}, 'rulesDir', `${H}/.config/buckler/rules.d`],
  ['linux', {}, 'auditLog', `${H}/.local/state/buckler/audit.jsonl`],
  ['linux', {}, 'cacheDir', `${H}/.local/state/buckler/cache`],
  ['linux', {}, 'versionsDir', `${H}/.local/share/buckler/versions`],
  ['linux', {}, 'current', `${H}/.local/share/buckler/current`],
  ['linux', {}, 'binDir', `${H}/.local/bin`],
  ['linux', {}, 'launcher', `${H}/.local/bin/buckler`],
  ['darwin', {}, 'configHome', `${H}/.config/buckler`],
  ['linux', { XDG_DATA_HOME: '/x/data' }, 'dataHome', '/x/data/buckler'],
  ['linux', { XDG_CONFIG_HOME: '/x/config/' }, 'configFile', '/x/config/buckler/config.toml'],
  ['linux', { XDG_STATE_HOME: '/x/state' }, 'auditLog', '/x/state/buckler/audit.jsonl'],
  ['linux', { XDG_DATA_HOME: 'relative' }, 'dataHome', `${H}/.local/share/buckler`],
  ['linux', { XDG_DATA_HOME: '' }, 'dataHome', `${H}/.local/share/buckler`],
  ['linux', { BUCKLER_DATA_HOME: '/opt/b', XDG_DATA_HOME: '/x/data' }, 'dataHome', '/opt/b'],
  ['linux', { BUCKLER_DATA_HOME: '/opt/b/' }, 'versionsDir', '/opt/b/versions'],
  ['linux', { BUCKLER_CONFIG_HOME: '/etc/b' }, 'rulesDir', '/etc/b/rules.d'],
  ['linux', { BUCKLER_STATE_HOME: '/var/b' }, 'cacheDir', '/var/b/cache'],
  ['linux', { BUCKLER_STATE_HOME: 'var/b' }, 'stateHome', `${H}/.local/state/buckler`],
  ['linux', { BUCKLER_BIN_DIR: '/usr/local/bin' }, 'launcher', '/usr/local/bin/buckler'],
  ['linux', { LOCALAPPDATA: '/ignored' }, 'dataHome', `${H}/.local/share/buckler`],
  ['linux', { XDG_DATA_HOME: '/a/../b' }, 'dataHome', '/a/../b/buckler'],
  ['win32', {}, 'dataHome', `${W}\\AppData\\Local\\Buckler`],
  ['win32', { LOCALAPPDATA: 'D:\\Local' }, 'dataHome', 'D:\\Local\\Buckler'],
  ['win32', { APPDATA: 'D:\\Roaming\\' }, 'configFile', 'D:\\Roaming\\Buckler\\config.toml'],
  ['win32', { LOCALAPPDATA: 'D:\\Local' }, 'stateHome', 'D:\\Local\\Buckler\\state'],
  ['win32', { LOCALAPPDATA: 'D:\\Local' }, 'binDir', 'D:\\Local\\Buckler\\bin'],
  ['win32', {}, 'launcher', `${W}\\AppData\\Local\\Buckler\\bin\\buckler.cmd`],
  ['win32', { XDG_DATA_HOME: 'C:\\xdg' }, 'dataHome', `${W}\\AppData\\Local\\Buckler`],
  ['win32', { BUCKLER_DATA_HOME: 'E:/b' }, 'versionsDir', 'E:/b\\versions'],
  ['win32', { BUCKLER_DATA_HOME: 'relative\\b' }, 'dataHome', `${W}\\AppData\\Local\\Buckler`],
];

describe('resolvePaths', () => {
  it.each(TABLE)('%s %j: %s = %s', (platform, env, key, want) => {
    expect(resolvePaths({ env, platform, home: platform === 'win32' ? W : H })[key]).toBe(want);
  });

  it('is pure: same arguments, same answer, nothing read from the process', () => {
    const ctx = { env: { XDG_DATA_HOME: '/d' }, platform: 'linux' as const, home: '/nobody' };
    expect(resolvePaths(ctx)).toEqual(resolvePaths(ctx));
    expect(resolvePaths(ctx).home).toBe('/nobody');
  });
});

describe('harness locations', () => {
  const ctx = (env: Env = {}) => ({ env, platform: 'linux' as const, home: H, project: '/p' });
  it.each([
    ['cursor', 'user', {}, `${H}/.cursor/hooks.json`],
    ['cursor', 'project', {}, '/p/.cursor/hooks.json'],
    ['claude-code', 'user', {}, `${H}/.claude/settings.json`],
    ['claude-code', 'user', { CLAUDE_CONFIG_DIR: '/cc/' }, '/cc/settings.json'],
    ['claude-code', 'project', {}, '/p/.claude/settings.json'],
    ['claude-code', 'local', {}, '/p/.claude/settings.local.json'],
    ['factory-droid', 'user', {}, `${H}/.factory/settings.json`],
    ['factory-droid', 'project', {}, '/p/.factory/settings.json'],
    ['qwen-code', 'user', {}, `${H}/.qwen/settings.json`],
    ['qwen-code', 'project', {}, '/p/.qwen/settings.json'],
    ['qwen-code', 'user', { QWEN_HOME: '/q' }, '/q/settings.json'],
    ['opencode', 'user', {}, `${H}/.config/opencode/plugins/buckler.js`],
    ['opencode', 'project', {}, '/p/.opencode/plugins/buckler.js'],
    ['opencode', 'user', { XDG_CONFIG_HOME: '/x' }, '/x/opencode/plugins/buckler.js'],
    ['opencode', 'user', { XDG_CONFIG_HOME: 'relative' }, `${H}/.config/opencode/plugins/buckler.js`],
  ] as const)('%s %s %j → %s', (harness, scope, env, want) => {
    expect(harnessConfigFile(harness, scope, ctx(env))).toBe(want);
  });
  it('cursor has no local scope', () => {
    expect(() => harnessConfigFile('cursor', 'local', ctx())).toThrow(/cursor has no local scope/);
  });
  it('home directories', () => {
    expect(harnessHomeDir('cursor', ctx())).toBe(`${H}/.cursor`);
    expect(harnessHomeDir('claude-code', ctx({ CLAUDE_CONFIG_DIR: '/cc' }))).toBe('/cc');
  });
});

describe('helpers', () => {
  it.each([
    ['linux', '/a', true],
    ['linux', 'a', false],
    ['linux', 'C:\\a', false],
    ['win32', 'C:\\a', true],
    ['win32', 'c:/a', true],
    ['win32', '\\\\srv\\share', true],
    ['win32', '/a', true],
    ['win32', 'C:a', false],
    ['win32', 'a\\b', false],
  ] as const)('isAbsoluteFor(%s, %j) = %s', (platform, p, want) => {
    expect(isAbsoluteFor(platform, p)).toBe(want);
  });

  it('joinFor drops trailing separators of the base and normalises nothing', () => {
    expect(joinFor('linux', '/a//', 'b', 'c')).toBe('/a/b/c');
    expect(joinFor('linux', '/', 'b')).toBe('/b');
    expect(joinFor('linux', '/a/./../b', 'c')).toBe('/a/./../b/c');
    expect(joinFor('win32', 'C:\\', 'b')).toBe('C:\\b');
    expect(joinFor('win32', 'C:/x/', 'b')).toBe('C:/x\\b');
  });

  it('homeFromEnv: HOME on POSIX, USERPROFILE on Windows, undefined when unset or empty', () => {
    expect(homeFromEnv({ HOME: '/h', USERPROFILE: 'C:\\u' }, 'linux')).toBe('/h');
    expect(homeFromEnv({ HOME: '/h', USERPROFILE: 'C:\\u' }, 'win32')).toBe('C:\\u');
    expect(homeFromEnv({ HOME: '' }, 'linux')).toBeUndefined();
    expect(homeFromEnv({ HOME: '/h' }, 'win32')).toBeUndefined();
  });

  it('ignoredVariables names the set, relative directory variables of the platform', () => {
    const env = { XDG_DATA_HOME: 'rel', BUCKLER_STATE_HOME: './s', BUCKLER_DATA_HOME: '/ok', LOCALAPPDATA: 'rel', XDG_CONFIG_HOME: '' };
    expect(ignoredVariables({ env, platform: 'linux' })).toEqual(['BUCKLER_STATE_HOME', 'XDG_DATA_HOME']);
    expect(ignoredVariables({ env, platform: 'win32' })).toEqual(['BUCKLER_STATE_HOME', 'LOCALAPPDATA']);
  });

  it.each([
    ['linux', {}, '/etc/claude-code/managed-settings.json'],
    ['darwin', {}, '/Library/Application Support/ClaudeCode/managed-settings.json'],
    ['win32', {}, 'C:\\Program Files\\ClaudeCode\\managed-settings.json'],
    ['linux', { BUCKLER_MANAGED_ROOT: '/t/m/' }, '/t/m/etc/claude-code/managed-settings.json'],
    ['linux', { BUCKLER_MANAGED_ROOT: 'relative' }, '/etc/claude-code/managed-settings.json'],
    ['win32', { BUCKLER_MANAGED_ROOT: 'D:\\m' }, 'D:\\m\\Program Files\\ClaudeCode\\managed-settings.json'],
  ] as const)('harnessManagedFile(claude-code) on %s with %j', (platform, env, want) => {
    expect(harnessManagedFile('claude-code', { env, platform })).toBe(want);
  });

  it.each([
    ['gemini-cli', 'linux', {}, '/etc/gemini-cli/settings.json'],
    ['gemini-cli', 'freebsd', {}, '/etc/gemini-cli/settings.json'],
    ['gemini-cli', 'darwin', {}, '/Library/Application Support/GeminiCli/settings.json'],
    ['qwen-code', 'win32', {}, 'C:\\ProgramData\\qwen-code\\settings.json'],
    ['codex', 'darwin', {}, null],
    ['copilot-cli', 'linux', {}, null],
    ['opencode', 'linux', { BUCKLER_MANAGED_ROOT: '/m' }, '/m/etc/opencode/opencode.json'],
    ['factory-droid', 'linux', { BUCKLER_MANAGED_ROOT: 'relative' }, '/etc/factory/settings.json'],
  ] as const)('harnessSystemFile(%s) on %s with %j', (harness, platform, env, want) => {
    expect(harnessSystemFile(harness, { env, platform })).toBe(want);
  });

  it('harnessManagedFile is the system file only for a harness with a managed scope', () => {
    expect(harnessManagedFile('gemini-cli', { env: {}, platform: 'linux' })).toBeNull();
    expect(harnessManagedFile('claude-code', { env: {}, platform: 'freebsd' })).toBe('/etc/claude-code/managed-settings.json');
  });

  it('harnessManagedFile: Cursor has no managed settings file', () => {
    expect(harnessManagedFile('cursor', { env: {}, platform: 'linux' })).toBeNull();
  });
});
