/**
 * The compiled-pack cache on disk: a warm load comes from the cache file, any change to a
 * builtin pack, a user pack or config.toml is seen at once, and a corrupt or unwritable cache
 * is rebuilt or skipped, never fatal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate } from '../core/evaluate.ts';
import { resolvePaths } from '../paths.ts';
import { loadRuntimePolicy } from './runtime.ts';

let root: string;
let packsDir: string;
let configHome: string;
let stateHome: string;

const pack = (id: string, action: string, program = 'rm') => `pack: ${id}
version: "1"
rules:
  - id: r
    trigger: pre_shell_exec
    match:
      shell_segments:
        - program: ${program}
    action: ${action}
    user_message: "m"
    agent_message: "m"
    additional_context: "c"
`;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-cache-'));
  packsDir = path.join(root, 'packs');
  configHome = path.join(root, 'config');
  stateHome = path.join(root, 'state');
  fs.mkdirSync(packsDir);
  fs.writeFileSync(path.join(packsDir, 'base.yaml'), pack('base', 'deny'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const env = () => ({ BUCKLER_CONFIG_HOME: configHome, BUCKLER_STATE_HOME: stateHome, HOME: root });
const paths = () => resolvePaths({ env: env(), platform: process.platform, home: root });
const load = () => loadRuntimePolicy(paths(), { packsDir });
const cacheFile = () => path.join(stateHome, 'cache', 'policy-config.json');
const decide = async (command: string) =>
  evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command } }, (await load()).policy).decision;

/** Bump a file's mtime well past the last one, as a later edit would. */
function touchLater(file: string, text: string): void {
  fs.writeFileSync(file, text);
  const t = new Date(Date.now() + 5000);
  fs.utimesSync(file, t, t);
}

describe('compiled-pack cache', () => {
  it('writes the cache on a cold load and serves the same policy warm', async () => {
    const cold = await load();
    expect(fs.existsSync(cacheFile())).toBe(true);
    expect(cold.cached).toBeUndefined();
    const warm = await load();
    expect(warm).toEqual({ ...cold, cached: true });
    // Served from the file: a hand-marked record with the right stamp is what comes back.
    const rec = JSON.parse(fs.readFileSync(cacheFile(), 'utf8'));
    rec.loaded.warnings = ['from-cache'];
    fs.writeFileSync(cacheFile(), JSON.stringify(rec));
    expect((await load()).warnings).toEqual(['from-cache']);
  });

  it('sees an edited builtin pack at once', async () => {
    expect(await decide('rm x')).toBe('deny');
    touchLater(path.join(packsDir, 'base.yaml'), pack('base', 'ask'));
    expect(await decide('rm x')).toBe('ask');
  });

  it('sees a user pack added, edited and removed', async () => {
    expect(await decide('curl x')).toBe('allow');
    const rules = path.join(configHome, 'rules.d');
    fs.mkdirSync(rules, { recursive: true });
    const mine = path.join(rules, 'mine.yaml');
    fs.writeFileSync(mine, pack('mine', 'deny', 'curl'));
    expect(await decide('curl x')).toBe('deny');
    touchLater(mine, pack('mine', 'nudge', 'curl'));
    expect(await decide('curl x')).toBe('nudge');
    fs.rmSync(mine);
    expect(await decide('curl x')).toBe('allow');
  });

  it('sees config.toml created and changed', async () => {
    expect((await load()).config.audit_log).toBe(false);
    fs.mkdirSync(configHome, { recursive: true });
    const cfg = path.join(configHome, 'config.toml');
    fs.writeFileSync(cfg, '[core]\naudit_log = true\n');
    expect((await load()).config.audit_log).toBe(true);
    touchLater(cfg, '[packs]\nbase = { enabled = false }\n');
    expect((await load()).config.audit_log).toBe(false);
    expect(await decide('rm x')).toBe('allow');
  });

  it.each([
    ['empty', ''],
    ['torn', '{"cache_format":1,"stamp":"'],
    ['not JSON', '\u0000\u0001garbage'],
    ['well-formed but for another stamp', JSON.stringify({ cache_format: 1, stamp: 'old', loaded: {} })],
  ])('rebuilds a corrupt cache (%s) and rewrites it', async (_, text) => {
    await load();
    fs.writeFileSync(cacheFile(), text);
    expect(await decide('rm x')).toBe('deny');
    expect(fs.readFileSync(cacheFile(), 'utf8')).not.toBe(text);
  });

  it('works without a writable state directory (cache skipped, not fatal)', async () => {
    fs.writeFileSync(stateHome, 'a file where the state directory should be');
    expect(await decide('rm x')).toBe('deny');
  });

  it('leaves no temporary files behind', async () => {
    await load();
    await load();
    expect(fs.readdirSync(path.join(stateHome, 'cache'))).toEqual(['policy-config.json']);
  });

  it('keeps tiers apart', async () => {
    const strict = await loadRuntimePolicy(paths(), { packsDir, tier: 'strict' });
    expect(strict.policy.tier).toBe('strict');
    expect((await load()).policy.tier).toBe('baseline');
    expect(fs.readdirSync(path.join(stateHome, 'cache')).sort()).toEqual(['policy-config.json', 'policy-strict.json']);
  });
});
