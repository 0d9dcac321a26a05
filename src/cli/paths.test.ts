import { describe, expect, it } from 'vitest';
import { resolvePaths } from '../paths.ts';
import { fakeIO } from './fake-io.testing.ts';
import { run, type PathsReport } from './paths.ts';

const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/xdg/config', BUCKLER_DATA_HOME: '/opt/buckler', CLAUDE_CONFIG_DIR: '/cc' };

describe('buckler paths', () => {
  it('--json: resolvePaths for this environment, the harness files and the builtin packs', () => {
    const io = fakeIO({ env, cwd: '/work/proj' });
    expect(run(['--json'], io)).toBe(0);
    const r = JSON.parse(io.stdout) as PathsReport;
    expect(r.paths).toEqual(resolvePaths({ env, platform: process.platform, home: '/home/u' }));
    expect(r.paths.configFile).toBe('/xdg/config/buckler/config.toml');
    expect(r.paths.versionsDir).toBe('/opt/buckler/versions');
    expect(r.harnesses.cursor).toEqual({ home: '/home/u/.cursor', user: '/home/u/.cursor/hooks.json', project: '/work/proj/.cursor/hooks.json' });
    expect(r.harnesses['claude-code'].user).toBe('/cc/settings.json');
    expect(r.harnesses['claude-code'].local).toBe('/work/proj/.claude/settings.local.json');
    expect(r.builtinPacks).toMatch(/packs$/);
    expect(r.ignored).toEqual([]);
    expect(io.stderr).toBe('');
  });

  it('prints a readable table', () => {
    const io = fakeIO({ env, cwd: '/work/proj' });
    expect(run([], io)).toBe(0);
    expect(io.stdout).toMatch(/^data home +\/opt\/buckler$/m);
    expect(io.stdout).toMatch(/^config file +\/xdg\/config\/buckler\/config.toml$/m);
    expect(io.stdout).toMatch(/^audit log +\/home\/u\/.local\/state\/buckler\/audit.jsonl$/m);
    expect(io.stdout).toMatch(/^claude-code \(user\) +\/cc\/settings.json$/m);
  });

  it('says which variables it ignored', () => {
    const io = fakeIO({ env: { HOME: '/h', XDG_STATE_HOME: 'relative/state' } });
    expect(run([], io)).toBe(0);
    expect(io.stderr).toBe('buckler paths: XDG_STATE_HOME=relative/state is ignored: not an absolute path\n');
    expect(io.stdout).toMatch(/^state home +\/h\/.local\/state\/buckler$/m);
  });

  it('refuses an unknown option', () => {
    const io = fakeIO({ env });
    expect(run(['--yaml'], io)).toBe(2);
    expect(io.stderr).toMatch(/unknown option '--yaml'/);
  });
});
