/**
 * The compiled-pack cache on disk: a warm load comes from the cache file, any change to a
 * builtin pack, a user pack or config.toml is seen at once, and a corrupt or unwritable cache
 * is rebuilt or skipped, never fatal.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate } from '../core/evaluate.ts';
import { resolvePaths } from '../paths.ts';
import { cacheFileText, DamagedCacheError, readCacheFile, type CachedLoad } from './cache.ts';
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

/** The load a cache file holds, as plain data (every rule and program read). */
function recordOf(text: string): { stamp: string; loaded: CachedLoad } {
  const stamp = JSON.parse(text.split('\n')[1]!).stamp as string;
  const v = readCacheFile(Buffer.from(text, 'utf8'), stamp);
  if (v.kind !== 'hit') throw new Error(`not a hit: ${v.kind}`);
  return { stamp, loaded: JSON.parse(JSON.stringify(v.loaded)) as CachedLoad };
}

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
    // Served from the file: a marked record with the right stamp and digest is what comes back.
    const rec = recordOf(fs.readFileSync(cacheFile(), 'utf8'));
    rec.loaded.warnings = ['from-cache'];
    fs.writeFileSync(cacheFile(), cacheFileText(rec.stamp, rec.loaded));
    expect((await load()).warnings).toEqual(['from-cache']);
  });

  it('a rule edited after it was written (a deny turned into an allow) fails when a hook first uses it, and the file is removed', async () => {
    expect(await decide('rm x')).toBe('deny');
    const text = fs.readFileSync(cacheFile(), 'utf8');
    fs.writeFileSync(cacheFile(), text.replaceAll('"action":"deny"', '"action":"alow"'));
    const warm = await load();
    expect(warm.cached).toBe(true);
    expect(evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'ls x' } }, warm.policy).decision).toBe('allow');
    expect(() => evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'rm x' } }, warm.policy)).toThrow(DamagedCacheError);
    expect(fs.existsSync(cacheFile())).toBe(false);
    expect((await load()).cached).toBeUndefined();
    expect(fs.readFileSync(cacheFile(), 'utf8')).toBe(text);
  });

  it('refuses a record whose head was edited after it was written and rebuilds it', async () => {
    expect(await decide('rm x')).toBe('deny');
    const text = fs.readFileSync(cacheFile(), 'utf8');
    expect(text).toContain('"warnings":[]');
    fs.writeFileSync(cacheFile(), text.replace('"warnings":[]', '"warnings":[""]'));
    const loaded = await load();
    expect(loaded.cached).toBeUndefined();
    expect(loaded.warnings.at(-1)).toMatch(/compiled-pack cache .* was not used \(digest mismatch/);
    expect(evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'rm x' } }, loaded.policy).decision).toBe('deny');
    expect(fs.readFileSync(cacheFile(), 'utf8')).toBe(text);
    expect((await load()).cached).toBe(true);
  });

  it('refuses a record copied from other inputs, even with its own digest intact', async () => {
    await load();
    const other = fs.readFileSync(cacheFile(), 'utf8');
    touchLater(path.join(packsDir, 'base.yaml'), pack('base', 'ask'));
    await load();
    fs.writeFileSync(cacheFile(), other); // the older, intact record: stale, so rebuilt
    expect(await decide('rm x')).toBe('ask');
  });

  /** A poisoned cache for the current inputs: every rule allows, with a valid digest. */
  function poisoned(): string {
    const rec = recordOf(fs.readFileSync(cacheFile(), 'utf8'));
    for (const r of rec.loaded.policy.rules) r.action = 'allow';
    return cacheFileText(rec.stamp, rec.loaded);
  }

  it('never follows a symlinked cache directory to a poisoned copy, and replaces the link', async () => {
    await load();
    const poison = path.join(root, 'poison');
    fs.mkdirSync(poison);
    const bad = poisoned();
    fs.writeFileSync(path.join(poison, 'policy-config.json'), bad);
    const dir = path.join(stateHome, 'cache');
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(poison, dir);
    const loaded = await load();
    expect(loaded.cached).toBeUndefined();
    expect(loaded.warnings.at(-1)).toMatch(/the cache directory is a symbolic link/);
    expect(await decide('rm x')).toBe('deny');
    expect(fs.lstatSync(dir).isDirectory()).toBe(true); // a real directory again
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(poison)).toEqual(['policy-config.json']); // never written through
    expect(fs.readFileSync(path.join(poison, 'policy-config.json'), 'utf8')).toBe(bad);
  });

  it('never follows a symlinked cache file, and replaces the link, not its target', async () => {
    await load();
    const target = path.join(root, 'poison.json');
    const bad = poisoned();
    fs.writeFileSync(target, bad);
    fs.rmSync(cacheFile());
    fs.symlinkSync(target, cacheFile());
    const loaded = await load();
    expect(loaded.cached).toBeUndefined();
    expect(loaded.warnings.at(-1)).toMatch(/the cache file is a symbolic link/);
    expect(await decide('rm x')).toBe('deny');
    expect(fs.lstatSync(cacheFile()).isFile()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe(bad);
  });

  it('a FIFO at the cache path neither hangs nor is trusted', async () => {
    await load();
    fs.rmSync(cacheFile());
    execFileSync('mkfifo', [cacheFile()]);
    const loaded = await load();
    expect(loaded.warnings.at(-1)).toMatch(/not a regular file/);
    expect(fs.lstatSync(cacheFile()).isFile()).toBe(true);
  });

  it.runIf(typeof process.getuid === 'function' && process.getuid() === 0)('never uses nor writes a cache directory of another user', async () => {
    await load();
    const dir = path.join(stateHome, 'cache');
    fs.chownSync(dir, 4242, 4242);
    const before = fs.readFileSync(cacheFile(), 'utf8');
    const loaded = await loadRuntimePolicy(paths(), { packsDir, uid: 0 });
    expect(loaded.cached).toBeUndefined();
    expect(loaded.warnings.at(-1)).toMatch(/the cache directory belongs to another user/);
    expect(fs.readFileSync(cacheFile(), 'utf8')).toBe(before);
  });

  it('tightens a cache directory left open to others', async () => {
    await load();
    fs.chmodSync(path.join(stateHome, 'cache'), 0o777);
    fs.rmSync(cacheFile());
    await load();
    expect(fs.statSync(path.join(stateHome, 'cache')).mode & 0o777).toBe(0o700);
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
    expect((await load()).config.audit_log).toBeNull();
    fs.mkdirSync(configHome, { recursive: true });
    const cfg = path.join(configHome, 'config.toml');
    fs.writeFileSync(cfg, '[core]\naudit_log = true\n');
    expect((await load()).config.audit_log).toBe(true);
    touchLater(cfg, '[packs]\nbase = { enabled = false }\n');
    expect((await load()).config.audit_log).toBeNull();
    expect(await decide('rm x')).toBe('allow');
  });

  it.each([
    ['empty', ''],
    ['torn', '{"cache_format":1,"stamp":"'],
    ['header only', `buckler-policy-cache v3 digest=${'0'.repeat(16)}\n`],
    ['a record of an older version', JSON.stringify({ cache_format: 2, stamp: 'x', loaded: {} })],
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
