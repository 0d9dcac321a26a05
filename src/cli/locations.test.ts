/**
 * Named locations: the CLI's (src/cli/locations.ts) are the ones rule examples stand in, and
 * every file every installer edits or reads hooks from, in every scope, is a location the
 * builtin agent-tamper pack denies writing and deleting — by shell and by a file tool. A harness
 * added to the installers is covered the day its record (src/harnesses/) lists its files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PolicyInput } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { INSTALLERS } from '../installers/registry.ts';
import { HARNESSES } from '../harnesses/index.ts';
import { exampleLocations } from '../packs/example-locations.ts';
import { loadPolicyReport } from '../packs/runtime.ts';
import { harnessConfigFile, resolvePaths, type InstallableHarness, type PathContext } from '../paths.ts';
import { actionContext } from './action-context.ts';
import { namedLocations } from './locations.ts';

const HOME = '/home/dev';

/** The locations for /home/dev on Linux, written out: a change to a record shows here. */
const PINNED: Record<string, string[]> = {
  buckler_config: ['/home/dev/.config/buckler', '/home/dev/.config/buckler/**'],
  buckler_state: ['/home/dev/.local/state/buckler', '/home/dev/.local/state/buckler/**'],
  buckler_data: ['/home/dev/.local/share/buckler', '/home/dev/.local/share/buckler/**', '/home/dev/.local/bin/buckler'],
  harness_settings: [
    '/home/dev/.cursor/hooks.json',
    '.cursor/hooks.json',
    '/etc/cursor/hooks.json',
    '/home/dev/.claude/settings.json',
    '/home/dev/.claude/settings.local.json',
    '.claude/settings.json',
    '.claude/settings.local.json',
    '/etc/claude-code/managed-settings.json',
    '/home/dev/.codex/hooks.json',
    '/home/dev/.codex/config.toml',
    '.codex/hooks.json',
    '.codex/config.toml',
    '/home/dev/.gemini/settings.json',
    '.gemini/settings.json',
    '/etc/gemini-cli/settings.json',
    '/home/dev/.copilot/settings.json',
    '.github/copilot/settings.json',
    '.github/copilot/settings.local.json',
    '.github/hooks/*.json',
    '/home/dev/.factory/settings.json',
    '/home/dev/.factory/settings.local.json',
    '/home/dev/.factory/hooks.json',
    '.factory/settings.json',
    '.factory/settings.local.json',
    '.factory/hooks.json',
    '/home/dev/.qwen/settings.json',
    '.qwen/settings.json',
    '/home/dev/.config/opencode/plugin/**',
    '/home/dev/.config/opencode/plugins/**',
    '/home/dev/.config/opencode/opencode.json',
    '/home/dev/.config/opencode/opencode.jsonc',
    '/home/dev/.config/opencode/config.json',
    '/home/dev/.config/opencode/package.json',
    '.opencode/plugin/**',
    '.opencode/plugins/**',
    '.opencode/opencode.json',
    '.opencode/opencode.jsonc',
    '.opencode/package.json',
    '/home/dev/.config/kilo/plugin/**',
    '/home/dev/.config/kilo/plugins/**',
    '/home/dev/.config/kilo/kilo.json',
    '/home/dev/.config/kilo/kilo.jsonc',
    '/home/dev/.config/kilo/opencode.json',
    '/home/dev/.config/kilo/opencode.jsonc',
    '/home/dev/.config/kilo/config.json',
    '/home/dev/.config/kilo/package.json',
    '/home/dev/.kilo/plugin/**',
    '/home/dev/.kilo/plugins/**',
    '/home/dev/.kilocode/plugin/**',
    '/home/dev/.kilocode/plugins/**',
    '.kilo/plugin/**',
    '.kilo/plugins/**',
    '.kilo/kilo.json',
    '.kilo/kilo.jsonc',
    '.kilo/package.json',
    '.kilocode/plugin/**',
    '.kilocode/plugins/**',
    '.kilocode/kilo.json',
    '.kilocode/kilo.jsonc',
    '.kilocode/package.json',
  ],
  harness_credentials: [
    '/home/dev/.config/cursor/auth.json',
    '/home/dev/.claude/.credentials.json',
    '/home/dev/.codex/auth.json',
    '/home/dev/.gemini/oauth_creds.json',
    '/home/dev/.copilot/config.json',
    '/home/dev/.factory/auth.json',
    '/home/dev/.qwen/oauth_creds.json',
    '/home/dev/.local/share/opencode/auth.json',
    '/home/dev/.local/share/kilo/auth.json',
  ],
  harness_trust: ['/home/dev/.claude.json', '/home/dev/.codex/config.toml', '/home/dev/.gemini/trustedFolders.json', '/home/dev/.copilot/config.json'],
};

const PROJECT = '/home/dev/project';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-locations-'));
afterAll(() => fs.rmSync(configHome, { recursive: true, force: true }));
const policy = (await loadPolicyReport(resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: configHome }), { tier: 'baseline', examples: false })).policy;

function decide(ctx: PathContext, shell: string | null, tool: { name: string; path: string; access: 'write' | 'delete' | 'read' } | null): string {
  const input: PolicyInput = { policy_io_version: '1', trigger: shell !== null ? 'pre_shell_exec' : 'pre_shell_tool' };
  if (shell !== null) input.shell = { command: shell, cwd: PROJECT };
  if (tool !== null) input.tool = { name: tool.name, paths: [{ path: tool.path, access: tool.access }] };
  input.context = { cwd: PROJECT, home: ctx.home, project_roots: [PROJECT], temp_dirs: ['/tmp'], locations: namedLocations(ctx) };
  return evaluate(input, policy).decision;
}

describe('namedLocations', () => {
  it('rule examples stand in the locations the CLI computes for the fake home /home/dev', () => {
    expect(namedLocations({ env: {}, platform: 'linux', home: HOME })).toEqual(PINNED);
    expect(exampleLocations()).toEqual(PINNED);
  });

  it('follows the variables that move the directories', () => {
    const loc = namedLocations({
      env: { BUCKLER_CONFIG_HOME: '/cfg', XDG_STATE_HOME: '/st', CLAUDE_CONFIG_DIR: '/cc' },
      platform: 'linux',
      home: HOME,
    });
    expect(loc.buckler_config).toEqual(['/cfg', '/cfg/**']);
    expect(loc.buckler_state).toEqual(['/st/buckler', '/st/buckler/**']);
    expect(loc.harness_settings).toContain('/cc/settings.json');
    expect(loc.harness_credentials).toContain('/cc/.credentials.json');
  });

  it('the action context carries them for its home, unless the input gave its own', () => {
    const ctx = actionContext({ policy_io_version: '1', trigger: 'pre_shell_exec', context: { home: HOME, cwd: PROJECT, project_roots: [PROJECT] } }, { env: {}, cwd: PROJECT, platform: 'linux' });
    expect(ctx.locations).toEqual(exampleLocations());
    const given = actionContext({ policy_io_version: '1', trigger: 'pre_shell_exec', context: { home: HOME, locations: { x: ['/x'] } } }, { env: {}, cwd: PROJECT, platform: 'linux' });
    expect(given.locations).toEqual({ x: ['/x'] });
  });
});

describe('every installer\'s files are protected by agent-tamper', () => {
  const envs: Array<[string, Record<string, string>]> = [
    ['defaults', {}],
    ['harness home variables', { CLAUDE_CONFIG_DIR: '/opt/claude', CODEX_HOME: '/opt/codex', GEMINI_CLI_HOME: '/opt/gemini', COPILOT_HOME: '/opt/copilot' }],
  ];
  const files = (env: Record<string, string>) =>
    (Object.keys(INSTALLERS) as InstallableHarness[]).flatMap((name) =>
      INSTALLERS[name].scopes.map((scope) => [name, scope, harnessConfigFile(name, scope, { env, platform: 'linux', home: HOME, project: PROJECT })] as const),
    );

  it('every installable harness lists its files', () => {
    for (const name of Object.keys(INSTALLERS)) expect(HARNESSES[name as InstallableHarness].files.settings.length, name).toBeGreaterThan(0);
  });

  it.each(envs)('(%s) a write, a delete and a file-tool write of each is denied; a read is allowed', (_what, env) => {
    const ctx: PathContext = { env, platform: 'linux', home: HOME };
    for (const [name, scope, file] of files(env)) {
      const where = `${name} ${scope} ${file}`;
      expect([where, decide(ctx, `echo '{}' > '${file}'`, null)]).toEqual([where, 'deny']);
      expect([where, decide(ctx, `rm -f '${file}'`, null)]).toEqual([where, 'deny']);
      expect([where, decide(ctx, null, { name: 'Write', path: file, access: 'write' })]).toEqual([where, 'deny']);
      expect([where, decide(ctx, null, { name: 'Delete', path: file, access: 'delete' })]).toEqual([where, 'deny']);
      expect([where, decide(ctx, `cat '${file}'`, null)]).toEqual([where, 'allow']);
    }
  });

  it('so are Buckler\'s own files, wherever the variables put them', () => {
    const env = { BUCKLER_CONFIG_HOME: '/c', BUCKLER_STATE_HOME: '/s', BUCKLER_DATA_HOME: '/d' };
    const ctx: PathContext = { env, platform: 'linux', home: HOME };
    const p = resolvePaths(ctx);
    for (const file of [p.configFile, `${p.rulesDir}/x.yaml`, p.auditLog, `${p.cacheDir}/policy.json`, `${p.dataHome}/bundles/x.bundle`, `${p.current}/dist/buckler.cjs`, p.launcher]) {
      expect([file, decide(ctx, `echo x > '${file}'`, null)]).toEqual([file, 'deny']);
      expect([file, decide(ctx, null, { name: 'Edit', path: file, access: 'write' })]).toEqual([file, 'deny']);
      expect([file, decide(ctx, `cat '${file}'`, null)]).toEqual([file, 'allow']);
    }
  });
});
