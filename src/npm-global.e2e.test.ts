/**
 * Buckler installed as what npm produces: `npm pack`, then `npm install -g ./buckler-<version>.tgz`
 * into a fresh prefix with a fresh HOME and npm cache, and an npm registry that cannot answer (the
 * runtime dependencies travel inside the tarball: `bundleDependencies`). Then `buckler` from the
 * prefix's bin wires Claude Code, and the hook it wrote, run as Claude Code runs it, denies a
 * force push. The install made the V8 code cache beside the bundle (scripts/postinstall.cjs),
 * since the hooks of a root-owned prefix cannot write it later.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from './cli/e2e.testing.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
let env: Record<string, string>;
const prefix = (): string => path.join(work, 'prefix');
const home = (): string => path.join(work, 'home');
const installed = (): string => path.join(prefix(), 'lib', 'node_modules', 'buckler');

beforeAll(() => {
  bundle(); // dist/ from the current sources; the pack below does not build again
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-npm-global-')));
  fs.mkdirSync(home());
  fs.mkdirSync(prefix());
  env = {
    HOME: home(),
    PATH: [path.join(prefix(), 'bin'), path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    npm_config_prefix: prefix(),
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}, 180_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('npm install -g of the packed tarball', () => {
  it('packs with its runtime dependencies inside, and installs offline into a fresh prefix', () => {
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env: { ...env, HOME: home() }, stdio: 'pipe' });
    const tarball = path.join(work, `buckler-${VERSION}.tgz`);
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of ['package/dist/buckler.cjs', 'package/dist/main.cjs', 'package/scripts/postinstall.cjs', 'package/node_modules/js-yaml/package.json', 'package/node_modules/smol-toml/package.json']) {
      expect(listing).toContain(f);
    }
    expect(listing.filter((f) => f.endsWith('.v8cache'))).toEqual([]);
    const r = spawnSync('npm', ['install', '-g', '--offline', tarball], { cwd: work, env, encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(fs.realpathSync(path.join(prefix(), 'bin', 'buckler'))).toBe(path.join(installed(), 'dist', 'buckler.cjs'));
    // The code cache was made at install time, while the prefix was writable.
    expect(fs.readdirSync(path.join(installed(), 'dist')).filter((f) => /^\.main-[0-9a-f]+\.v8cache$/.test(f))).toHaveLength(1);
    // The install wrote nothing into the person's home but npm's own files.
    expect(fs.readdirSync(home()).filter((f) => f !== '.npm')).toEqual([]);
  }, 300_000);

  it('buckler from the prefix wires Claude Code, and the hook it wrote denies a force push', () => {
    const run = (args: string[]) => spawnSync('buckler', args, { cwd: home(), env, encoding: 'utf8' });
    expect(run(['--version']).stdout.trim()).toBe(VERSION);
    fs.mkdirSync(path.join(home(), '.claude'));
    const merged = run(['hooks', 'merge', '--harness', 'claude-code']);
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
    const settings = JSON.parse(fs.readFileSync(path.join(home(), '.claude', 'settings.json'), 'utf8')) as {
      hooks: { PreToolUse: { hooks: { command: string }[] }[] };
    };
    const command = settings.hooks.PreToolUse[0]?.hooks[0]?.command as string;
    expect(command).toContain(path.join(installed(), 'dist', 'buckler.cjs'));
    const event = (cmd: string) =>
      JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd: home(), permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: cmd }, tool_use_id: 't' });
    const deny = spawnSync('sh', ['-c', command], { cwd: home(), env, input: event('git push --force origin main'), encoding: 'utf8' });
    expect(deny.status).toBe(0);
    expect(JSON.parse(deny.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(deny.stdout).toContain('agent-git/no-force-push');
    // Its look-alike is allowed: a plain push.
    const allow = spawnSync('sh', ['-c', command], { cwd: home(), env, input: event('git push origin main'), encoding: 'utf8' });
    expect(allow.status).toBe(0);
    expect(allow.stdout).not.toContain('"deny"');
  }, 120_000);
});
